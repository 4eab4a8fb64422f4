import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { upsertSuperAdmin } from './users.repository.js';
import { hashPassword } from './passwords.js';

/**
 * D1: at start-up, when no active super admin exists and both variables are set, create one. An active
 * user with that e-mail is promoted rather than duplicated. Returns whether anything was created.
 */
export async function ensureBootstrapSuperAdmin(
  db: Kysely<DB>,
  credentials: { email: string; password: string },
): Promise<boolean> {
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where('is_super_admin', '=', true)
    .where('active', '=', true)
    .executeTakeFirst();
  if (existing !== undefined) return false;
  const passwordHash = await hashPassword(credentials.password);
  const inserted = await upsertSuperAdmin(db, {
    email: credentials.email.toLowerCase(),
    full_name: 'Platform Administrator',
    password_hash: passwordHash,
  });
  return inserted !== undefined;
}
