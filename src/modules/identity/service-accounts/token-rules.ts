import { validationError } from '../../../platform/errors/app-error.js';
import { normaliseAllowedIp } from './ip-allow-list.js';

/** The rules of a token's terms, checked before anything is written (422 naming the field). */

const DAY_MS = 24 * 3600 * 1000;

/** An expiry is required, in the future, and at most `maxDays` ahead. */
export function checkedExpiry(expiresAt: string | Date, now: Date, maxDays: number): Date {
  const at = new Date(expiresAt);
  if (at.getTime() <= now.getTime()) throw validationError([{ field: 'expires_at', message: 'must be in the future' }]);
  if (at.getTime() > now.getTime() + maxDays * DAY_MS) {
    throw validationError([{ field: 'expires_at', message: `must be at most ${maxDays} days ahead (SERVICE_ACCOUNT_TOKEN_MAX_DAYS)` }]);
  }
  return at;
}

/** The allow-list in one form, each entry checked; absent or empty: any address (null). */
export function checkedAllowList(entries: readonly string[] | undefined): string[] | null {
  if (entries === undefined || entries.length === 0) return null;
  const normalised = entries.map((entry, index) => {
    const value = normaliseAllowedIp(entry);
    if (value === null) throw validationError([{ field: `allowed_ips/${index}`, message: 'must be an IPv4 or IPv6 address or CIDR range' }]);
    return value;
  });
  return [...new Set(normalised)];
}

/** The overlap of a rotation, in hours: 24 unless given, at most `maxHours`. */
export function checkedOverlapMs(hours: number | undefined, maxHours: number): number {
  const wanted = hours ?? Math.min(24, maxHours);
  if (wanted > maxHours) {
    throw validationError([{ field: 'overlap_hours', message: `must be at most ${maxHours} (SERVICE_ACCOUNT_ROTATION_OVERLAP_MAX_HOURS)` }]);
  }
  return wanted * 3600 * 1000;
}

export type TokenStatus = 'active' | 'expired' | 'revoked';

export function tokenStatus(token: { revoked_at: Date | null; expires_at: Date }, now: Date): TokenStatus {
  if (token.revoked_at !== null) return 'revoked';
  return token.expires_at.getTime() <= now.getTime() ? 'expired' : 'active';
}
