import { sql, type SelectQueryBuilder } from 'kysely';

/**
 * The two statements of a paginated list (D2.5), built from one filtered query so that the total and the rows
 * agree: `countRows` for the total, `newestFirst` for a page.
 */

/**
 * How many rows a filtered query selects: `count(*)` over it (whatever it selected is dropped), read as a
 * number, since PostgreSQL answers a bigint that the driver hands back as a string.
 */
export async function countRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  // Kysely cannot name the selection over a generic table; the one column is the count.
  const row = (await query
    .clearSelect()
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow()) as { count: string | number | bigint };
  return Number(row.count);
}

/**
 * One page of a list in its order of D2.5, newest first: `created_at desc, id desc` (the id breaks ties, so
 * pages neither repeat nor skip a row). `table` names the alias the query gives the listed table, if any.
 */
export function newestFirst<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, limit: number, offset: number, table?: string) {
  const column = (name: string) => sql.ref(table === undefined ? name : `${table}.${name}`);
  return query.orderBy(column('created_at'), 'desc').orderBy(column('id'), 'desc').limit(limit).offset(offset);
}
