import type { Executor } from '../../../platform/db/schema.js';
import type { UserRef } from '../bras.schemas.js';
import { userNames, type UserNames } from './people.repository.js';

/**
 * People by name (issue 35): a BRA answer that names a user by id also gives `{ id, full_name }` under a
 * sibling member (`approved_by` → `approved_by_user`), so a reviewer reads who approved without a user
 * lookup they may not be allowed.
 */

/** The `{ id, full_name }` of an id; null for no id. */
export function userRef(names: UserNames, id: string | null): UserRef | null {
  if (id === null) return null;
  return { id, full_name: names.get(id) ?? '' };
}

/** Rows with `created_by`, each with its `created_by_user`: one statement for all of them. */
export async function withCreatorNames<T extends { created_by: string | null }>(
  db: Executor,
  rows: T[],
): Promise<(T & { created_by_user: UserRef | null })[]> {
  const names = await userNames(db, rows.map((row) => row.created_by));
  return rows.map((row) => ({ ...row, created_by_user: userRef(names, row.created_by) }));
}
