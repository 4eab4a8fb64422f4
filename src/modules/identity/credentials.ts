import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { bearerToken } from '../../platform/auth/bearer.js';
import type { AuthSecrets } from '../../platform/auth/secrets.js';

/** Pure helpers for the provider's credentials: API keys, bearer headers, refresh tokens and one-time link tokens. */

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Compares through SHA-256 digests so that the comparison takes the same time whatever the length or
 * content of the presented value: neither the key's length nor its prefix can be probed.
 */
function sameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

export type ApiKeyKind = 'anon' | 'service_role';

/** Which key the `apikey` header carries, or null. Both comparisons always run. */
export function apiKeyKind(header: string | string[] | undefined, secrets: AuthSecrets): ApiKeyKind | null {
  if (typeof header !== 'string') return null;
  const anon = sameSecret(header, secrets.anonKey);
  const service = sameSecret(header, secrets.serviceRoleKey);
  return service ? 'service_role' : anon ? 'anon' : null;
}

export function isServiceRoleBearer(header: string | undefined, secrets: AuthSecrets): boolean {
  const token = bearerToken(header);
  return token !== null && sameSecret(token, secrets.serviceRoleKey);
}

export const REFRESH_TOKEN_TTL_MS = 7 * 24 * 3600 * 1000;

/** D3: opaque and random, 256 bits. Only its hash is stored. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashRefreshToken(token) };
}

/** A plain SHA-256 suffices: the token is 256 random bits, so there is nothing to brute-force. */
export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The token of an invitation or recovery link is made and stored as a refresh token is: 256 random bits, only its hash kept. */
export const newOneTimeToken = newRefreshToken;
export const hashOneTimeToken = hashRefreshToken;
