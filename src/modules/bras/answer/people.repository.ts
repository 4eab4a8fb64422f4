import { sql } from 'kysely';
import type { Executor } from '../../../platform/db/schema.js';

/**
 * The names of the users a BRA answer names (SQL only): one statement per answer, a join or one lookup of
 * every id a list names, never one per row. `users` belongs to platform/auth; these are reads.
 */

export type UserNames = ReadonlyMap<string, string>;

/** The creator, approver and canceller of a BRA: one statement joining the BRA with its users. */
export async function braPeople(db: Executor, enterpriseId: string, braId: string): Promise<UserNames> {
  const rows = await db
    .selectFrom('bras as b')
    .innerJoin('users as u', (join) => join.on(sql<boolean>`u.id in (b.created_by, b.approved_by, b.cancelled_by)`))
    .select(['u.id', 'u.full_name'])
    .where('b.enterprise_id', '=', enterpriseId)
    .where('b.id', '=', braId)
    .execute();
  return new Map(rows.map((row) => [row.id, row.full_name]));
}

/** The names of the users a list names (deduplicated): one statement for the whole list. */
export async function userNames(db: Executor, ids: readonly (string | null)[]): Promise<UserNames> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'full_name']).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.id, row.full_name]));
}
