import { sql, type Kysely } from 'kysely';
import type { AuthMode } from '../../config.js';
import type { DB } from '../db/schema.js';
import type { EntityAssignment, Principal } from './principal.js';
import type { VerifiedClaims } from './token-verifier.js';

/**
 * How long a resolved principal is reused. A revocation or deactivation on this instance drops the
 * entry at once (invalidate*); other instances see it when their entry expires, within this bound (the
 * contract allows 5 s).
 */
export const PRINCIPAL_TTL_MS = 4_000;
const CACHE_LIMIT = 10_000;

export type Resolution =
  | { kind: 'ok'; principal: Principal }
  | { kind: 'unknown_user' }
  | { kind: 'inactive_user' }
  | { kind: 'revoked_session' }
  /** External mode: the token names no linked user and its e-mail is not verified, so it links to none. */
  | { kind: 'unverified_email' }
  | { kind: 'no_membership'; principal: Principal };

export interface PrincipalResolver {
  resolve(claims: VerifiedClaims): Promise<Resolution>;
  /** Drop what is cached about a user (deactivation, role or assignment change). */
  invalidateUser(userId: string): void;
  /** Drop a revoked session. */
  invalidateSession(sessionId: string): void;
}

interface Row {
  id: string;
  email: string;
  full_name: string;
  active: boolean;
  is_super_admin: boolean;
  role: Principal['role'] | null;
  enterprise_id: string | null;
  session_revoked: boolean | null;
  assignments: EntityAssignment[] | null;
}

/**
 * External mode's first sight of a provider's subject: links it to the active, not yet linked user of the
 * token's (verified) e-mail and returns that user's id, or null. `users` is the identity module's table, so
 * the composition root hands its function in (the platform imports no module).
 */
export type ExternalSubjectLinker = (db: Kysely<DB>, email: string, subject: string) => Promise<string | null>;

/**
 * One query per (user, session) every few seconds: the user, their active membership, their entity
 * assignments and, for the embedded provider, whether the session is still live.
 */
export function createPrincipalResolver(db: Kysely<DB>, mode: AuthMode, linkExternalSubject: ExternalSubjectLinker): PrincipalResolver {
  const cache = new Map<string, { at: number; resolution: Resolution; userId: string; sessionId: string | null }>();

  async function load(claims: VerifiedClaims): Promise<Row | 'unverified_email' | undefined> {
    const userId = mode === 'embedded' ? claims.sub : await externalUserId(db, claims, linkExternalSubject);
    if (userId === null || userId === 'unverified_email') return userId ?? undefined;
    return (await db
      .selectFrom('users as u')
      .leftJoin('enterprise_members as m', (join) => join.onRef('m.user_id', '=', 'u.id').on('m.active', '=', true))
      .select((eb) => [
        'u.id',
        'u.email',
        'u.full_name',
        'u.active',
        'u.is_super_admin',
        'm.role',
        'm.enterprise_id',
        (mode === 'embedded' && claims.sessionId !== null
          ? eb
              .selectFrom('auth_sessions as s')
              .select((s) => s('s.revoked_at', 'is not', null).as('revoked'))
              .where('s.id', '=', claims.sessionId)
              .where('s.user_id', '=', userId)
          : eb.val<boolean | null>(null)
        ).as('session_revoked'),
        eb
          .selectFrom('entity_roles as r')
          .select(
            sql<EntityAssignment[]>`coalesce(json_agg(json_build_object('legal_entity_id', r.legal_entity_id, 'business_unit_id', r.business_unit_id)), '[]'::json)`.as(
              'assignments',
            ),
          )
          .whereRef('r.user_id', '=', 'u.id')
          .whereRef('r.enterprise_id', '=', 'm.enterprise_id')
          .as('assignments'),
      ])
      .where('u.id', '=', userId)
      .executeTakeFirst()) as Row | undefined;
  }

  function decide(claims: VerifiedClaims, row: Row | 'unverified_email' | undefined): Resolution {
    if (row === undefined) return { kind: 'unknown_user' };
    if (row === 'unverified_email') return { kind: 'unverified_email' };
    if (!row.active) return { kind: 'inactive_user' };
    // In embedded mode every token names a session; a missing or revoked one is refused.
    if (mode === 'embedded' && (claims.sessionId === null || row.session_revoked !== false)) {
      return { kind: 'revoked_session' };
    }
    const principal: Principal = {
      userId: row.id,
      email: row.email,
      fullName: row.full_name,
      role: row.is_super_admin ? 'super_admin' : (row.role ?? 'reviewer'),
      enterpriseId: row.is_super_admin ? null : row.enterprise_id,
      sessionId: claims.sessionId,
      entityAssignments: row.is_super_admin ? [] : (row.assignments ?? []),
    };
    if (!row.is_super_admin && row.enterprise_id === null) return { kind: 'no_membership', principal };
    return { kind: 'ok', principal };
  }

  return {
    async resolve(claims) {
      const key = `${claims.sub}:${claims.sessionId ?? ''}`;
      const cached = cache.get(key);
      const now = Date.now();
      if (cached !== undefined && now - cached.at < PRINCIPAL_TTL_MS) return cached.resolution;
      const resolution = decide(claims, await load(claims));
      if (cache.size >= CACHE_LIMIT) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
      const userId = resolution.kind === 'ok' || resolution.kind === 'no_membership' ? resolution.principal.userId : claims.sub;
      cache.delete(key);
      cache.set(key, { at: now, resolution, userId, sessionId: claims.sessionId });
      return resolution;
    },
    invalidateUser(userId) {
      for (const [key, entry] of cache) if (entry.userId === userId) cache.delete(key);
    },
    invalidateSession(sessionId) {
      for (const [key, entry] of cache) if (entry.sessionId === sessionId) cache.delete(key);
    },
  };
}

/**
 * External mode: the provider's `sub` is linked to our user on first sight by the token's e-mail, then
 * found by the link. Only a verified address links: a provider that lets anyone sign up with any address
 * would otherwise hand our user's account to whoever registered it first (account takeover).
 */
async function externalUserId(db: Kysely<DB>, claims: VerifiedClaims, linkExternalSubject: ExternalSubjectLinker): Promise<string | 'unverified_email' | null> {
  const linked = await db.selectFrom('users').select('id').where('external_subject', '=', claims.sub).executeTakeFirst();
  if (linked !== undefined) return linked.id;
  if (claims.email === null) return null;
  if (!claims.emailVerified) {
    // Refused with its reason when the address names a user it would have linked to; else nobody.
    const candidate = await db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', claims.email!.toLowerCase()))
      .where('active', '=', true)
      .where('external_subject', 'is', null)
      .executeTakeFirst();
    return candidate === undefined ? null : 'unverified_email';
  }
  return linkExternalSubject(db, claims.email, claims.sub);
}
