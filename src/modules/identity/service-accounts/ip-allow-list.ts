import { BlockList, isIP } from 'node:net';

/**
 * A token's IP allow-list: addresses and CIDR ranges, IPv4 and IPv6. Entries are checked and written back in
 * one form when the token is issued; the request's address is matched at every use. An IPv4 address that
 * reaches a dual-stack listener as `::ffff:a.b.c.d` is the IPv4 address.
 */
export const MAX_ALLOWED_IPS = 50;

/** The entry in its usual form, or null when it is not an address or a CIDR range. */
export function normaliseAllowedIp(entry: string): string | null {
  const [address, prefix, extra] = entry.trim().split('/');
  if (address === undefined || extra !== undefined) return null;
  const family = isIP(address);
  if (family === 0) return null;
  if (prefix === undefined) return address.toLowerCase();
  if (!/^\d{1,3}$/.test(prefix)) return null;
  const bits = Number(prefix);
  if (bits > (family === 4 ? 32 : 128)) return null;
  return `${address.toLowerCase()}/${bits}`;
}

const unmapped = (ip: string) => (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip) ? ip.slice(7) : ip);

/** Whether `ip` is one of the (normalised) entries; an empty or absent list allows every address. */
export function ipAllowed(allowed: readonly string[] | null, ip: string): boolean {
  if (allowed === null || allowed.length === 0) return true;
  const address = unmapped(ip);
  const family = isIP(address);
  if (family === 0) return false;
  const list = new BlockList();
  for (const entry of allowed) {
    const [net, prefix] = entry.split('/');
    const type = isIP(net!) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(net!, type);
    else list.addSubnet(net!, Number(prefix), type);
  }
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
