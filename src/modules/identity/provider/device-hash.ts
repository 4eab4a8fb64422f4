import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

/** The last key used, imported once (a process has one provider, so one key). */
let cached: { encoded: string; key: KeyObject } | null = null;

/**
 * HMAC-SHA256 under the provider's device key (AuthSecrets.deviceKey), the label separating its uses (an
 * account's tag, a cookie's signature, an origin's hash), so that no value made for one use passes for another.
 */
export function deviceHash(deviceKey: string, label: string, text: string): Buffer {
  if (cached?.encoded !== deviceKey) cached = { encoded: deviceKey, key: createSecretKey(Buffer.from(deviceKey, 'base64url')) };
  return createHmac('sha256', cached.key).update(`${label}\u0000${text}`).digest();
}
