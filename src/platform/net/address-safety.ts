import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may not go (SSRF): private, shared, link-local (cloud metadata at 169.254.169.254),
 * loopback, unspecified, multicast and reserved ranges, in IPv4 and IPv6. Pure; the sender applies it to
 * every address a name resolves to, at connect time, and registration applies it to literal addresses.
 */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export const isLoopbackAddress = (address: string): boolean => {
  const ip = unmapped(address);
  return LOOPBACK.check(ip.address, ip.family);
};

/** Why an address is refused, or null when a webhook may connect to it. Loopback only with `allowLoopback`. */
export function refusedAddress(address: string, allowLoopback: boolean): string | null {
  if (isIP(address) === 0) return `${address} is not an IP address`;
  const ip = unmapped(address);
  if (LOOPBACK.check(ip.address, ip.family)) return allowLoopback ? null : `${address} is a loopback address`;
  if (INTERNAL.check(ip.address, ip.family)) return `${address} is a private, link-local or reserved address`;
  return null;
}

const LOOPBACK_NAMES = /^(localhost|localhost\.localdomain)\.?$|\.localhost\.?$/i;

/** A URL's host without the brackets of an IPv6 literal. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Registration's check of a URL (422 when refused): https only, except a loopback host over http when
 * loopback is allowed (development and tests); no credentials; a literal address must be public. A name
 * is resolved only when the dispatcher connects, and every address it resolves to is checked then
 * (connect time), so a name that later points inside is refused at that moment.
 */
export function refusedUrl(raw: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  const host = hostOf(url);
  const loopbackHost = LOOPBACK_NAMES.test(host) || (isIP(host) !== 0 && isLoopbackAddress(host));
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackHost && allowLoopback)) {
    return 'must use https';
  }
  if (loopbackHost) return allowLoopback ? null : 'must not point to a loopback address';
  if (isIP(host) !== 0) {
    const refused = refusedAddress(host, allowLoopback);
    if (refused !== null) return `must not point to ${refused.replace(`${host} is `, '')}`;
  }
  return null;
}
