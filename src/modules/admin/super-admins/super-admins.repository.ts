import { sql } from 'kysely';
import type { Executor } from '../../../platform/db/schema.js';

/** Reads of the super admins; their writes go through the identity service (the identity module owns users). */

const columns = ['u.id as user_id', 'u.email', 'u.full_name', 'u.created_at', 'u.last_sign_in_at as last_login'] as const;

export async function listSuperAdmins(db: Executor) {
  return db
    .selectFrom('users as u')
    .select(columns)
    .select(sql<boolean>`u.password_hash is not null`.as('has_password'))
    .where('u.is_super_admin', '=', true)
    .where('u.active', '=', true)
    .orderBy('u.created_at')
    .orderBy('u.id')
    .execute();
}

/**
 * Every active super admin, locked: two removals at once cannot both see "another one is left". The
 * count is small (the platform's own operators).
 */
export async function lockActiveSuperAdmins(db: Executor) {
  return db
    .selectFrom('users')
    .select('id')
    .where('is_super_admin', '=', true)
    .where('active', '=', true)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** The active user of an e-mail, with whether they belong to an enterprise. */
export async function findActiveUserByEmail(db: Executor, email: string) {
  return db
    .selectFrom('users as u')
    .select(columns)
    .select((eb) => [
      'u.is_super_admin',
      sql<boolean>`u.password_hash is not null`.as('has_password'),
      eb.exists(eb.selectFrom('enterprise_members as m').select('m.id').whereRef('m.user_id', '=', 'u.id').where('m.active', '=', true)).as('is_member'),
    ])
    .where((eb) => eb(eb.fn('lower', ['u.email']), '=', email.toLowerCase()))
    .where('u.active', '=', true)
    .forUpdate()
    .executeTakeFirst();
}

export async function findSuperAdmin(db: Executor, userId: string) {
  return db
    .selectFrom('users as u')
    .select(columns)
    .select(sql<boolean>`u.password_hash is not null`.as('has_password'))
    .where('u.id', '=', userId)
    .executeTakeFirstOrThrow();
}
