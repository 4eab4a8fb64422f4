import { CompiledQuery, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

let cursorSerial = 0;

/**
 * A query's rows in batches from a server-side cursor (DECLARE … FETCH), in a read-only, repeatable-read
 * transaction of its own: one consistent snapshot, one connection, and never more than one batch in
 * memory. The consumer pulls the next batch only when it is ready for it (an async generator), so a slow
 * client slows the fetching instead of filling memory. Leaving the loop early (a client gone away) rolls
 * back at once and returns the connection to the pool.
 */
export async function* cursorBatches<Row>(db: Kysely<DB>, query: CompiledQuery, batchSize: number): AsyncGenerator<Row[]> {
  const name = `export_cursor_${++cursorSerial}`;
  const trx = await db.startTransaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute();
  try {
    await trx.executeQuery(CompiledQuery.raw(`declare ${name} no scroll cursor for ${query.sql}`, [...query.parameters]));
    for (;;) {
      const { rows } = await trx.executeQuery<Row>(CompiledQuery.raw(`fetch forward ${batchSize} from ${name}`));
      // Counted before the consumer sees the batch: it may empty the array to let the rows go.
      const count = rows.length;
      if (count > 0) yield rows;
      if (count < batchSize) break;
    }
  } finally {
    await trx.rollback().execute();
  }
}
