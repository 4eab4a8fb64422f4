import type pg from 'pg';

/**
 * A PostgreSQL connection can end at any moment: a failover, a restart, `pg_terminate_backend`, the
 * embedded postmaster killed. pg reports it as an 'error' event on the client, and an 'error' event
 * without a listener ends the Node process. pg-pool listens on idle clients only and removes its listener
 * while a request holds the client, so each client gets a listener of its own for its whole life. The
 * query in flight (if any) still fails with the cause, which the error handler answers 503; the pool drops
 * the broken client and opens a new one for the next request, which is how it reconnects.
 */
export function guardPool(pool: pg.Pool, onLost: (error: Error) => void = () => undefined): void {
  pool.on('error', onLost);
  pool.on('connect', (client) => {
    client.on('error', onLost);
  });
}

/** The same for a client used on its own, outside a pool. */
export function guardClient(client: pg.Client, onLost: (error: Error) => void = () => undefined): pg.Client {
  client.on('error', onLost);
  return client;
}
