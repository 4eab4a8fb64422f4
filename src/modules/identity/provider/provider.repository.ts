import type { Selectable } from 'kysely';
import type { Executor } from '../../../platform/db/schema.js';
import type { UsersTable } from '../../../platform/db/tables/identity.js';

/** SQL of the embedded identity provider. Identities are platform-wide, so no enterprise_id argument. */

export type AccountRow = Pick<
  Selectable<UsersTable>,
  'id' | 'email' | 'full_name' | 'password_hash' | 'active' | 'is_super_admin' | 'created_at' | 'updated_at' | 'last_sign_in_at'
> & {
  /** The enterprise whose trail records the account's sign-ins; null: the platform trail. */
  trail_enterprise_id: string | null;
};

function selectAccount(db: Executor) {
  return db.selectFrom('users as u').select((eb) => [
    'u.id',
    'u.email',
    'u.full_name',
    'u.password_hash',
    'u.active',
    'u.is_super_admin',
    'u.created_at',
    'u.updated_at',
    'u.last_sign_in_at',
    // The active membership; for a deactivated user, the membership most recently ended with it, so
    // that refused attempts on a former member's account still reach that enterprise's trail.
    eb
      .selectFrom('enterprise_members as m')
      .select('m.enterprise_id')
      .whereRef('m.user_id', '=', 'u.id')
      .where((w) => w.or([w('m.active', '=', true), w('u.active', '=', false)]))
      .where('u.is_super_admin', '=', false)
      .orderBy('m.active', 'desc')
      .orderBy('m.deactivated_at', (ob) => ob.desc().nullsLast())
      .orderBy('m.created_at', 'desc')
      .limit(1)
      .as('trail_enterprise_id'),
  ]);
}

/**
 * The account an e-mail names, case-insensitively. Several deactivated users may share an address with
 * at most one active one (users_active_email_key): the active one wins, then the most recent.
 */
export async function findAccountByEmail(db: Executor, email: string): Promise<AccountRow | undefined> {
  return selectAccount(db)
    .where((eb) => eb(eb.fn('lower', ['u.email']), '=', email.toLowerCase()))
    .orderBy('u.active', 'desc')
    .orderBy('u.created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function findAccountById(db: Executor, userId: string): Promise<AccountRow | undefined> {
  return selectAccount(db).where('u.id', '=', userId).executeTakeFirst();
}

export async function createSession(db: Executor, userId: string): Promise<string> {
  const row = await db.insertInto('auth_sessions').values({ user_id: userId }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function insertRefreshToken(db: Executor, sessionId: string, tokenHash: string, expiresAt: Date): Promise<void> {
  await db.insertInto('auth_refresh_tokens').values({ session_id: sessionId, token_hash: tokenHash, expires_at: expiresAt }).execute();
}

export async function findRefreshToken(db: Executor, tokenHash: string) {
  return db
    .selectFrom('auth_refresh_tokens as t')
    .innerJoin('auth_sessions as s', 's.id', 't.session_id')
    .select(['t.id', 't.session_id', 't.expires_at', 't.replaced_at', 's.revoked_at as session_revoked_at', 's.user_id'])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * Marks a refresh token used. The row lock and the re-checked `replaced_at is null` let exactly one of
 * two concurrent transactions claim it; the other gets false.
 */
export async function claimRefreshToken(db: Executor, tokenId: number, at: Date): Promise<boolean> {
  const row = await db
    .updateTable('auth_refresh_tokens')
    .set({ replaced_at: at })
    .where('id', '=', tokenId)
    .where('replaced_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function touchSession(db: Executor, sessionId: string, at: Date): Promise<void> {
  await db.updateTable('auth_sessions').set({ refreshed_at: at }).where('id', '=', sessionId).execute();
}

/**
 * Locks the user's row until the transaction ends and reads the account afresh: a deactivation or a
 * password change (both update the row) either committed before, and is seen, or waits for this
 * transaction, and then ends the sessions it created.
 */
export async function lockAccount(db: Executor, userId: string): Promise<AccountRow | undefined> {
  const locked = await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
  if (locked === undefined) return undefined;
  return findAccountById(db, userId);
}
