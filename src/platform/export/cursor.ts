import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

let cursorSerial = 0;

/** Rows a FETCH brings when the caller does not say. */
export const CURSOR_BATCH = 100;

/**
 * A query's rows in batches from a server-side cursor (DECLARE … FETCH), in a read-only, repeatable-read
 * transaction of its own: one consistent snapshot, one connection, and never more than one batch in
 * memory. The consumer pulls the next batch only when it is ready for it (an async generator), so a slow
 * client slows the fetching instead of filling memory. Leaving the loop early (a client gone away) rolls
 * back at once and returns the connection to the pool. A failure is reported to `onError` (a stream that
 * breaks half-way has no answer left to carry it) and rethrown.
 */
export async function* cursorBatches<Row>(
  db: Kysely<DB>,
  query: CompiledQuery | Compilable,
  batchSize = CURSOR_BATCH,
  onError: (error: unknown) => void = () => {},
): AsyncGenerator<Row[]> {
  const name = `export_cursor_${++cursorSerial}`;
  const compiled = 'compile' in query ? query.compile() : query;
  const trx = await db.startTransaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute();
  try {
    await trx.executeQuery(CompiledQuery.raw(`declare ${name} no scroll cursor for ${compiled.sql}`, [...compiled.parameters]));
    for (;;) {
      const { rows } = await trx.executeQuery<Row>(CompiledQuery.raw(`fetch forward ${batchSize} from ${name}`));
      // Counted before the consumer sees the batch: it may empty the array to let the rows go.
      const count = rows.length;
      if (count > 0) yield rows;
      if (count < batchSize) break;
    }
  } catch (error) {
    onError(error);
    throw error;
  } finally {
    await trx.rollback().execute().catch(onError);
  }
}
