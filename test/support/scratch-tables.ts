import { sql, type Kysely } from 'kysely';
import { afterAll } from 'vitest';
import { freshDatabase } from './database.js';

/** A table of a scratch database: its columns as SQL, and the rows it starts with. */
export interface ScratchTable<Row> {
  columns: string;
  rows?: readonly Row[];
}

/**
 * A fresh database, closed after the suite, with the tables given, each created with its columns and filled
 * with its rows, in the order given: where a policy's SQL predicate is checked against its rule, row by row.
 */
export async function scratchTables<Tables>(tables: { [T in keyof Tables & string]: ScratchTable<Tables[T]> }): Promise<Kysely<Tables>> {
  const database = await freshDatabase();
  afterAll(() => database.close());
  // The rows' types are checked against Tables above; Kysely cannot type an insert into a table named at run time.
  const db = database.db as unknown as Kysely<any>;
  for (const [name, table] of Object.entries<ScratchTable<unknown>>(tables)) {
    await sql`create table ${sql.table(name)} (${sql.raw(table.columns)})`.execute(db);
    if (table.rows !== undefined && table.rows.length > 0) await db.insertInto(name).values([...table.rows]).execute();
  }
  return db as Kysely<Tables>;
}
