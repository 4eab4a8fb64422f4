import { sql, type Kysely } from 'kysely';
import { afterAll } from 'vitest';
import { freshDatabase } from './database.js';

export interface Place {
  legal_entity_id: string;
  business_unit_id: string | null;
}

/**
 * A fresh database with one table `b` of the places given (a legal entity, and a unit or none): where a
 * policy's SQL scope predicate is checked against its rule, row by row. Closed after the suite.
 */
export async function placesTable(places: readonly Place[]): Promise<Kysely<{ b: Place }>> {
  const database = await freshDatabase();
  afterAll(() => database.close());
  const db = database.db as unknown as Kysely<{ b: Place }>;
  await sql`create table b (legal_entity_id uuid not null, business_unit_id uuid)`.execute(db);
  await db.insertInto('b').values([...places]).execute();
  return db;
}
