import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { DB } from './schema.js';

export const CURSOR_FETCH_SIZE = 100;

/**
 * A query's rows in batches from a server-side cursor (DECLARE … FETCH) in a read-only, repeatable-read
 * transaction of its own: one consistent snapshot on one connection, whatever the number of rows. The next
 * batch is fetched only when the consumer asks for it, so a stream built on it keeps back-pressure; when the
 * consumer stops (a client gone away), the generator's `finally` rolls back and the connection returns to
 * the pool at once.
 */
export async function* cursorBatches<Row>(
  db: Kysely<DB>,
  query: Compilable,
  onError: (error: unknown) => void,
  name = 'export_cursor',
): AsyncGenerator<Row[]> {
  const trx = await db.startTransaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute();
  try {
    const compiled = query.compile();
    await trx.executeQuery(CompiledQuery.raw(`declare ${name} no scroll cursor for ${compiled.sql}`, [...compiled.parameters]));
    for (;;) {
      const { rows } = await trx.executeQuery<Row>(CompiledQuery.raw(`fetch forward ${CURSOR_FETCH_SIZE} from ${name}`));
      const count = rows.length; // read first: a consumer may empty the batch it was given
      yield rows;
      if (count < CURSOR_FETCH_SIZE) break;
    }
  } catch (error) {
    onError(error);
    throw error;
  } finally {
    await trx.rollback().execute().catch(onError);
  }
}
