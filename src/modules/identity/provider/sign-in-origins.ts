import type { Executor } from '../../../platform/db/schema.js';
import type { RequestOrigin } from '../../../platform/auth/principal.js';
import { deviceHash } from './device-hash.js';
import { isRecentOrigin, rememberOrigin } from './sign-in-origins.repository.js';

/**
 * The device of an API client, which keeps no cookie: the address and user agent of a recent successful
 * sign-in (decisions.md, "Sign-in from devices seen before"). Kept as a keyed hash, so the table holds
 * neither an address nor a user agent, and nobody without the key can tell which origin a row stands for.
 */
export const ORIGIN_MEMORY_MS = 30 * 24 * 3600 * 1000;

export const originHashOf = (deviceKey: string, origin: Pick<RequestOrigin, 'ip' | 'userAgent'>) =>
  deviceHash(deviceKey, 'sign-in-origin', `${origin.ip}\n${origin.userAgent ?? ''}`).toString('base64url');

export async function isKnownOrigin(db: Executor, deviceKey: string, userId: string, origin: RequestOrigin, now: Date): Promise<boolean> {
  return isRecentOrigin(db, userId, originHashOf(deviceKey, origin), new Date(now.getTime() - ORIGIN_MEMORY_MS));
}

/** A successful sign-in's origin, remembered in its transaction (under the user's row lock). */
export async function rememberSignInOrigin(db: Executor, deviceKey: string, userId: string, origin: RequestOrigin, now: Date): Promise<void> {
  await rememberOrigin(db, userId, originHashOf(deviceKey, origin), now, new Date(now.getTime() - ORIGIN_MEMORY_MS));
}
