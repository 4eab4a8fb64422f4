import { randomBytes, timingSafeEqual } from 'node:crypto';
import { deviceHash } from './device-hash.js';

/**
 * The device cookie (OWASP's "device cookies" against online guessing; decisions.md, "Sign-in from devices
 * seen before"): a browser's signed record of the accounts that signed in with a password on it. Pure: the
 * caller passes the key and the time.
 *
 * The value is up to MAX_ACCOUNTS_PER_DEVICE entries joined by `~`, the most recent first, each
 * `<account tag>.<device id>.<expires at>.<signature>`: the account named by a keyed hash of its user id (the
 * cookie tells nobody which account, nor its e-mail), a random id that the device's own sign-in budget is
 * counted under, the expiry in epoch seconds, and an HMAC over the three. An entry another account's, expired,
 * altered or signed with another key counts for nothing.
 */
export const DEVICE_COOKIE_NAME = 'sign_in_device';
/** How long a browser stays known after its last successful sign-in to an account. */
export const DEVICE_LIFETIME_SECONDS = 90 * 24 * 3600;
/** Accounts remembered per browser; also the most entries a request can make the service check. */
export const MAX_ACCOUNTS_PER_DEVICE = 10;

interface DeviceEntry {
  accountTag: string;
  deviceId: string;
  expiresAt: number;
  signature: string;
}

const ENTRY = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

const accountTag = (key: string, userId: string) => deviceHash(key, 'device-account', userId).subarray(0, 16).toString('base64url');
const signatureOf = (key: string, entry: Omit<DeviceEntry, 'signature'>) =>
  deviceHash(key, 'device-cookie', `${entry.accountTag}.${entry.deviceId}.${entry.expiresAt}`);
const formatEntry = (entry: DeviceEntry) => `${entry.accountTag}.${entry.deviceId}.${entry.expiresAt}.${entry.signature}`;

/** The well-formed entries of the cookie's values, at most MAX_ACCOUNTS_PER_DEVICE of them (the first ones). */
function entriesOf(values: readonly string[]): DeviceEntry[] {
  const entries: DeviceEntry[] = [];
  for (const part of values.flatMap((value) => value.split('~'))) {
    if (entries.length === MAX_ACCOUNTS_PER_DEVICE) break;
    const match = ENTRY.exec(part);
    if (match === null) continue;
    entries.push({ accountTag: match[1]!, deviceId: match[2]!, expiresAt: Number(match[3]), signature: match[4]! });
  }
  return entries;
}

function isGenuine(key: string, entry: DeviceEntry, nowSeconds: number): boolean {
  if (entry.expiresAt <= nowSeconds) return false;
  return timingSafeEqual(Buffer.from(entry.signature, 'base64url'), signatureOf(key, entry));
}

/** The device id this browser signed in to the account under, if one of its entries proves it; else null. */
export function knownDeviceId(values: readonly string[], key: string, userId: string, nowSeconds: number): string | null {
  const tag = accountTag(key, userId);
  const entry = entriesOf(values).find((candidate) => candidate.accountTag === tag && isGenuine(key, candidate, nowSeconds));
  return entry?.deviceId ?? null;
}

/** An entry for the account, signed and valid DEVICE_LIFETIME_SECONDS from now, under a new device id. */
export function deviceEntry(key: string, userId: string, nowSeconds: number): string {
  const unsigned = { accountTag: accountTag(key, userId), deviceId: randomBytes(16).toString('base64url'), expiresAt: nowSeconds + DEVICE_LIFETIME_SECONDS };
  return formatEntry({ ...unsigned, signature: signatureOf(key, unsigned).toString('base64url') });
}

/**
 * The cookie after a successful sign-in to the account: its fresh entry first, then the other accounts'
 * genuine entries (anything else is dropped), and the cookie's lifetime: its longest-lived entry's.
 */
export function nextDeviceCookie(values: readonly string[], key: string, userId: string, nowSeconds: number): { value: string; maxAgeSeconds: number } {
  const tag = accountTag(key, userId);
  const others = entriesOf(values).filter((entry) => entry.accountTag !== tag && isGenuine(key, entry, nowSeconds));
  const kept = others.slice(0, MAX_ACCOUNTS_PER_DEVICE - 1);
  return { value: [deviceEntry(key, userId, nowSeconds), ...kept.map(formatEntry)].join('~'), maxAgeSeconds: DEVICE_LIFETIME_SECONDS };
}

/** Every value of the device cookie in a Cookie header (a browser may send two of one name, set for different paths). */
export function deviceCookieValues(header: string | undefined): string[] {
  if (header === undefined) return [];
  const prefix = `${DEVICE_COOKIE_NAME}=`;
  return header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair.startsWith(prefix))
    .map((pair) => pair.slice(prefix.length));
}

/** The Set-Cookie value: only the provider's paths get it, never a script, never another site's request. */
export function deviceCookieHeader(value: string, maxAgeSeconds: number, options: { path: string; secure: boolean }): string {
  const attributes = [`${DEVICE_COOKIE_NAME}=${value}`, `Path=${options.path}`, `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Strict'];
  if (options.secure) attributes.push('Secure');
  return attributes.join('; ');
}
