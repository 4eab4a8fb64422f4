import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DEVICE_COOKIE_NAME,
  DEVICE_LIFETIME_SECONDS,
  MAX_ACCOUNTS_PER_DEVICE,
  deviceCookieHeader,
  deviceCookieValues,
  deviceEntry,
  knownDeviceId,
  nextDeviceCookie,
} from './device-cookie.js';

const key = randomBytes(32).toString('base64url');
const otherKey = randomBytes(32).toString('base64url');
const ada = '00000000-0000-4000-8000-00000000000a';
const ben = '00000000-0000-4000-8000-00000000000b';
const now = 1_900_000_000;

/** Replaces one character of a part of the entry (0 tag, 1 device, 2 expiry, 3 signature). */
function altered(entry: string, part: number): string {
  const parts = entry.split('.');
  const text = parts[part]!;
  const last = text.at(-2) === 'A' ? 'B' : 'A';
  parts[part] = `${text.slice(0, -2)}${last}${text.at(-1)}`;
  return parts.join('.');
}

describe('the device cookie (decisions.md, "Sign-in from devices seen before")', () => {
  it('an entry proves the account it was made for, under its device id, until it expires', () => {
    const entry = deviceEntry(key, ada, now);
    const device = knownDeviceId([entry], key, ada, now);
    expect(device).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(entry.split('.')[1]).toBe(device);
    expect(knownDeviceId([entry], key, ada, now + DEVICE_LIFETIME_SECONDS - 1)).toBe(device);
    expect(knownDeviceId([entry], key, ada, now + DEVICE_LIFETIME_SECONDS), 'expired').toBeNull();
  });

  it("another account's entry, an altered one, or one signed with another key proves nothing", () => {
    const entry = deviceEntry(key, ada, now);
    expect(knownDeviceId([entry], key, ben, now)).toBeNull();
    for (const part of [0, 1, 2, 3]) expect(knownDeviceId([altered(entry, part)], key, ada, now), `part ${part}`).toBeNull();
    expect(knownDeviceId([deviceEntry(otherKey, ada, now)], key, ada, now)).toBeNull();
    // An expiry pushed later without the key: the signature no longer matches.
    const [tag, device, , signature] = entry.split('.');
    expect(knownDeviceId([`${tag}.${device}.${now + 10 * DEVICE_LIFETIME_SECONDS}.${signature}`], key, ada, now + DEVICE_LIFETIME_SECONDS)).toBeNull();
    expect(knownDeviceId(['garbage', '', `${entry}x`], key, ada, now)).toBeNull();
  });

  it('names the account by a keyed hash: neither the user id nor anything derived without the key', () => {
    const entry = deviceEntry(key, ada, now);
    expect(entry).not.toContain(ada);
    expect(entry).not.toContain(ada.replaceAll('-', ''));
    expect(entry.split('.')[0]).not.toBe(deviceEntry(otherKey, ada, now).split('.')[0]);
  });

  it('keeps several accounts per browser, the latest first, the same account once, at most ten', () => {
    const first = nextDeviceCookie([], key, ada, now);
    expect(first.maxAgeSeconds).toBe(DEVICE_LIFETIME_SECONDS);
    const both = nextDeviceCookie([first.value], key, ben, now + 1);
    expect(knownDeviceId([both.value], key, ada, now + 2)).toBe(knownDeviceId([first.value], key, ada, now + 2));
    expect(knownDeviceId([both.value], key, ben, now + 2)).not.toBeNull();
    // Signing in to ada again replaces her entry (a new device id) rather than adding a second one.
    const again = nextDeviceCookie([both.value], key, ada, now + 3);
    expect(again.value.split('~')).toHaveLength(2);
    expect(knownDeviceId([again.value], key, ada, now + 4)).not.toBe(knownDeviceId([both.value], key, ada, now + 4));

    let value = '';
    const users = Array.from({ length: MAX_ACCOUNTS_PER_DEVICE + 2 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    for (const user of users) value = nextDeviceCookie([value], key, user, now).value;
    expect(value.split('~')).toHaveLength(MAX_ACCOUNTS_PER_DEVICE);
    expect(knownDeviceId([value], key, users.at(-1)!, now)).not.toBeNull();
    expect(knownDeviceId([value], key, users[0]!, now), 'the oldest account is dropped').toBeNull();
  });

  it('drops what proves nothing when it writes the cookie: altered, expired or foreign entries', () => {
    const genuine = deviceEntry(key, ben, now);
    const stale = deviceEntry(key, '00000000-0000-4000-8000-0000000000cc', now - DEVICE_LIFETIME_SECONDS);
    const next = nextDeviceCookie([[altered(genuine, 3), stale, deviceEntry(otherKey, ben, now), genuine].join('~')], key, ada, now);
    expect(next.value.split('~')).toHaveLength(2);
    expect(next.value.split('~')[1]).toBe(genuine);
  });

  it('checks at most ten entries of a request, however many it sends', () => {
    const filler = Array.from({ length: MAX_ACCOUNTS_PER_DEVICE }, (_, i) => deviceEntry(key, `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, now));
    expect(knownDeviceId([[...filler, deviceEntry(key, ada, now)].join('~')], key, ada, now)).toBeNull();
  });

  it('reads every value of its name from a Cookie header, and writes an http-only, strict, path-bound cookie', () => {
    expect(deviceCookieValues(undefined)).toEqual([]);
    expect(deviceCookieValues(`a=1; ${DEVICE_COOKIE_NAME}=x.y; other_${DEVICE_COOKIE_NAME}=z;${DEVICE_COOKIE_NAME}=w`)).toEqual(['x.y', 'w']);
    expect(deviceCookieHeader('v', 60, { path: '/auth/v1', secure: false })).toBe(
      `${DEVICE_COOKIE_NAME}=v; Path=/auth/v1; Max-Age=60; HttpOnly; SameSite=Strict`,
    );
    expect(deviceCookieHeader('v', 60, { path: '/auth/v1', secure: true })).toMatch(/; Secure$/);
  });
});
