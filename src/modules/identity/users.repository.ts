import { sql, type Transaction } from 'kysely';
import type { DB, Executor } from '../../platform/db/schema.js';

/**
 * The one writer of `users` (identities: e-mail, name, password, super admin, external subject). Its
 * type lives in tables/identity.ts: identities are the identity module's, whoever creates them (an
 * enterprise administrator and a super admin through identity.service.ts, the start-up bootstrap, the
 * first sign-in of an external account).
 */

/** A new identity without a password: the invitation's link lets its owner set one (or the provider's admin call, D3). */
export async function insertUser(trx: Transaction<DB>, values: { email: string; full_name: string; is_super_admin?: boolean }) {
  return trx
    .insertInto('users')
    .values({ ...values, password_hash: null })
    .returning(['id', 'email', 'full_name'])
    .executeTakeFirstOrThrow();
}

/** The same identity back (password, history and all); users_active_email_key refuses it if the address is taken meanwhile. */
export async function reactivateUser(trx: Transaction<DB>, userId: string, at: Date) {
  await trx.updateTable('users').set({ active: true, deactivated_at: null, updated_at: at }).where('id', '=', userId).execute();
}

/** Promotes or demotes a super admin (D9 and the platform's administration). */
export async function setSuperAdmin(trx: Transaction<DB>, userId: string, superAdmin: boolean, at: Date) {
  await trx.updateTable('users').set({ is_super_admin: superAdmin, updated_at: at }).where('id', '=', userId).execute();
}

/** A new e-mail or name (a directory's change, SCIM); users_active_email_key refuses an address taken (409). */
export async function updateProfile(trx: Transaction<DB>, userId: string, changes: { email?: string; full_name?: string }, at: Date) {
  await trx.updateTable('users').set({ ...changes, updated_at: at }).where('id', '=', userId).execute();
}

export async function deactivateUser(trx: Transaction<DB>, userId: string, at: Date) {
  await trx
    .updateTable('users')
    .set({ active: false, deactivated_at: at, updated_at: at })
    .where('id', '=', userId)
    .execute();
}

/**
 * D1's bootstrap super admin: inserted, or an active user of that e-mail promoted (users_active_email_key).
 * Returns the id, or undefined when nothing was written.
 */
export async function upsertSuperAdmin(db: Executor, values: { email: string; full_name: string; password_hash: string }) {
  return db
    .insertInto('users')
    .values({ ...values, is_super_admin: true })
    .onConflict((oc) =>
      oc
        .expression(sql`lower(email)`)
        .where('active', '=', true)
        .doUpdateSet({ is_super_admin: true, password_hash: values.password_hash, updated_at: new Date() }),
    )
    .returning('id')
    .executeTakeFirst();
}

/** External mode: links the active, not yet linked user of this e-mail to the provider's subject. */
export async function linkExternalSubject(db: Executor, email: string, subject: string): Promise<string | null> {
  const link = await db
    .updateTable('users')
    .set({ external_subject: subject, updated_at: new Date() })
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .where('active', '=', true)
    .where('external_subject', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return link?.id ?? null;
}

export async function recordSignIn(db: Executor, userId: string, at: Date): Promise<void> {
  await db.updateTable('users').set({ last_sign_in_at: at }).where('id', '=', userId).execute();
}

export async function setPasswordHash(db: Executor, userId: string, passwordHash: string): Promise<boolean> {
  const row = await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: new Date() })
    .where('id', '=', userId)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Replaces a hash with a stronger one of the same password. Only if it is still the hash that was
 * checked: a password set meanwhile (admin call) is not overwritten, and updated_at stays as it was.
 */
export async function upgradePasswordHash(db: Executor, userId: string, checkedHash: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).where('password_hash', '=', checkedHash).execute();
}
