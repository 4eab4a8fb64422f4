import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { bearerToken } from '../../../../platform/auth/bearer.js';
import { originOf } from '../../../../platform/auth/principal.js';
import type { DB } from '../../../../platform/db/schema.js';
import { addressKey, type RateLimiter } from '../../../../platform/http/rate-limit/rate-limit.hook.js';
import { parseToken, secretMatches } from '../../integration-tokens/integration-token.js';
import { findScimTokenForUse, recordScimTokenUse } from '../scim-tokens.repository.js';
import { scimError } from './scim-errors.js';
import type { ScimCaller } from './scim-users.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    scimCaller: ScimCaller | null;
  }
}

export interface ScimGateDeps {
  db: Kysely<DB>;
  /** Per enterprise: its directory's requests (RATE_LIMIT_SCIM_PER_*). */
  limiter: RateLimiter;
  /** Per address, the API's: what refused tokens count against. */
  addressLimiter: RateLimiter;
  publicUrl: string;
  invalidToken(request: FastifyRequest): void;
}

/**
 * The gate of /scim/v2: the enterprise's SCIM bearer token (`rsk_scim_…`), not a user's. A valid token
 * names its enterprise, the only one the call may touch; it is counted per enterprise, a refused one per
 * address. Revocation holds at the next request (no cache).
 */
export function registerScimGate(scope: FastifyInstance, deps: ScimGateDeps): void {
  scope.decorateRequest('scimCaller', null);
  scope.addHook('onRequest', async (request, reply) => {
    const token = bearerToken(request.headers.authorization);
    const parsed = token === null ? null : parseToken('scim', token);
    const row = parsed === null ? undefined : await findScimTokenForUse(deps.db, parsed.id);
    const now = new Date();
    const valid =
      row !== undefined && secretMatches(parsed!.secret, row.secret_hash) && row.revoked_at === null && (row.expires_at === null || row.expires_at > now);
    if (!valid) {
      await deps.addressLimiter(request, reply, addressKey(request));
      if (token !== null) deps.invalidToken(request);
      throw scimError('UNAUTHORIZED', token === null ? 'A SCIM bearer token is required' : 'Invalid, expired or revoked SCIM token');
    }
    await deps.limiter(request, reply, `scim:${row.enterprise_id}`);
    if (row.last_used_at === null || now.getTime() - row.last_used_at.getTime() > 60_000) {
      await recordScimTokenUse(deps.db, row.enterprise_id, row.id, request.ip, now);
    }
    const origin = originOf(request);
    request.scimCaller = {
      enterpriseId: row.enterprise_id,
      base: `${deps.publicUrl}/scim/v2`,
      actor: { details: { actor: 'scim', scim_token_id: row.id, scim_token_name: row.name }, ip: origin.ip, userAgent: origin.userAgent, operation: origin.operation },
    };
  });
}
