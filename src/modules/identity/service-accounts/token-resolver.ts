import type { Kysely } from 'kysely';
import type { ApiTokenResolver } from '../../../platform/auth/api-tokens.js';
import type { Principal } from '../../../platform/auth/principal.js';
import type { DB } from '../../../platform/db/schema.js';
import { parseToken, secretMatches } from '../integration-tokens/integration-token.js';
import { ipAllowed } from './ip-allow-list.js';
import { findTokenForUse, recordTokenUse } from './tokens.repository.js';

const PREFIX = 'rsk_sa_';

/**
 * Service-account tokens at the /api/v1 gate (handed to the platform by app.ts). A token resolves to its
 * account's principal: its role and entity assignments, so that every policy applies as to a member's,
 * and its id as user id (rate limits, idempotency keys, read-your-writes and audit entries are keyed by it).
 * Nothing is cached: one primary-key lookup per request, so a revocation, an expiry or a deactivation
 * holds at the next request on every instance. Last use is written at most once a minute per token.
 */
export function createServiceAccountTokenResolver(db: Kysely<DB>, now: () => Date = () => new Date()): ApiTokenResolver {
  return {
    accepts: (token) => token.startsWith(PREFIX),

    async resolve(token, ip) {
      const parsed = parseToken('sa', token);
      if (parsed === null) return { kind: 'invalid', reason: 'malformed' };
      const row = await findTokenForUse(db, parsed.id);
      if (row === undefined || !secretMatches(parsed.secret, row.secret_hash)) return { kind: 'invalid', reason: 'unknown' };
      const at = now();
      if (row.revoked_at !== null) return { kind: 'invalid', reason: 'revoked' };
      if (row.expires_at.getTime() <= at.getTime()) return { kind: 'invalid', reason: 'expired' };
      if (!row.active) return { kind: 'invalid', reason: 'deactivated' };
      const principal: Principal = {
        userId: row.account_id,
        email: row.email,
        fullName: row.name,
        role: row.role,
        enterpriseId: row.enterprise_id,
        sessionId: null,
        entityAssignments: row.assignments,
        kind: 'service_account',
      };
      if (!ipAllowed(row.allowed_ips, ip)) return { kind: 'address_refused', principal };
      await recordTokenUse(db, row.enterprise_id, row.id, ip, at);
      return { kind: 'ok', principal };
    },
  };
}
