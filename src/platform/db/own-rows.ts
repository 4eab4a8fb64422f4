import type { Kysely, Selectable, UpdateObject } from 'kysely';
import type { DB, Executor } from './schema.js';

/**
 * One record of an enterprise, by id: the statements every versioned record's repository wrote again (find,
 * lock for a change, update or archive), once. Every query names the enterprise, so a record of another one
 * is never read nor written. A repository calls them with its own table's name, a literal: the table-owner
 * rule (test/architecture/table-owners.ts) reads the table `updateOwnRow` writes from its second argument.
 */

/** The tables whose rows belong to one enterprise and are found by their id. */
export type OwnTable = { [T in keyof DB]: DB[T] extends { enterprise_id: unknown; id: unknown } ? T : never }[keyof DB];
type Column<T extends OwnTable> = keyof Selectable<DB[T]> & string;
export type OwnRow<T extends OwnTable, C extends Column<T>> = Pick<Selectable<DB[T]>, C>;

// Kysely cannot type a query over a table named by a type parameter; the signatures above carry the types.
const loose = (db: Executor) => db as unknown as Kysely<any>;

const selectOwn = (db: Executor, table: string, enterpriseId: string, id: string, columns: readonly string[]) =>
  loose(db).selectFrom(table).select(columns).where('enterprise_id', '=', enterpriseId).where('id', '=', id);

/**
 * The record with the columns named, or undefined when the enterprise has none of that id. `lock`: under its
 * row lock for the rest of the transaction, so concurrent changes apply one after another.
 */
export async function findOwnRow<T extends OwnTable, C extends Column<T>>(
  db: Executor,
  table: T,
  enterpriseId: string,
  id: string,
  columns: readonly C[],
  lock = false,
): Promise<OwnRow<T, C> | undefined> {
  const query = selectOwn(db, table, enterpriseId, id, columns);
  return (await (lock ? query.forUpdate() : query).executeTakeFirst()) as OwnRow<T, C> | undefined;
}

/** The record under its row lock (findOwnRow, locked). */
export const lockOwnRow = <T extends OwnTable, C extends Column<T>>(db: Executor, table: T, enterpriseId: string, id: string, columns: readonly C[]) =>
  findOwnRow(db, table, enterpriseId, id, columns, true);

/**
 * Sets the values given on the record (a change, or an archive: whatever columns the table archives with)
 * and answers it with the columns named. The record is known to exist (it was locked before): throws if not.
 */
export async function updateOwnRow<T extends OwnTable, C extends Column<T>>(
  db: Executor,
  table: T,
  enterpriseId: string,
  id: string,
  values: UpdateObject<DB, T>,
  columns: readonly C[],
): Promise<OwnRow<T, C>> {
  const row = await loose(db)
    .updateTable(table as string)
    .set(values as Record<string, unknown>)
    .where('enterprise_id', '=', enterpriseId)
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirstOrThrow();
  return row as OwnRow<T, C>;
}
