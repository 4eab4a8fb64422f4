import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The opaque bearer tokens of integrations: a service account's (`rsk_sa_…`) and an enterprise's SCIM
 * provider's (`rsk_scim_…`). `rsk_<kind>_<id>_<secret>`: a fixed prefix secret scanners can match (GitHub,
 * GitLab and the like take custom patterns: `rsk_(sa|scim)_[0-9a-f]{32}_[A-Za-z0-9_-]{43}`), the row's id
 * (32 hex digits, which finds it by primary key before its enterprise is known) and 256 random bits of
 * secret, of which only the SHA-256 is stored. Nothing to brute-force, so no slow hash.
 */
export type IntegrationTokenKind = 'sa' | 'scim';

const SHAPE = /^rsk_(sa|scim)_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

export interface IssuedToken {
  id: string;
  token: string;
  secretHash: string;
  /** What a list shows to tell tokens apart: the prefix and the id's first characters. */
  hint: string;
}

const hex = (uuid: string) => uuid.replaceAll('-', '');
const uuidOf = (digits: string) =>
  `${digits.slice(0, 8)}-${digits.slice(8, 12)}-${digits.slice(12, 16)}-${digits.slice(16, 20)}-${digits.slice(20)}`;

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export function issueToken(kind: IntegrationTokenKind, id: string): IssuedToken {
  const secret = randomBytes(32).toString('base64url');
  return { id, token: `rsk_${kind}_${hex(id)}_${secret}`, secretHash: hashSecret(secret), hint: `rsk_${kind}_${hex(id).slice(0, 8)}…` };
}

export function hasTokenShape(kind: IntegrationTokenKind, token: string): boolean {
  return token.startsWith(`rsk_${kind}_`) && SHAPE.test(token);
}

/** The id and secret of a token of this kind, or null. */
export function parseToken(kind: IntegrationTokenKind, token: string): { id: string; secret: string } | null {
  const match = SHAPE.exec(token);
  if (match === null || match[1] !== kind) return null;
  return { id: uuidOf(match[2]!), secret: match[3]! };
}

/** Constant-time comparison of a presented secret with the stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
