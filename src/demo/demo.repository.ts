import { sql } from 'kysely';
import type { Executor } from '../platform/db/schema.js';

/** Reads only: the demo detects what exists; everything it creates goes through the domain services. */

export async function findEnterpriseByName(db: Executor, name: string) {
  return db
    .selectFrom('enterprises')
    .select(['id', 'name', 'created_at'])
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
}

export async function findActiveUsersByEmail(db: Executor, emails: readonly string[]) {
  if (emails.length === 0) return [];
  return db
    .selectFrom('users')
    .select(['id', 'email', 'full_name', 'is_super_admin'])
    .where('active', '=', true)
    .where(
      sql<string>`lower(email)`,
      'in',
      emails.map((email) => email.toLowerCase()),
    )
    .execute();
}

export async function findActiveSuperAdmin(db: Executor) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'full_name'])
    .where('is_super_admin', '=', true)
    .where('active', '=', true)
    .orderBy('created_at')
    .executeTakeFirst();
}
