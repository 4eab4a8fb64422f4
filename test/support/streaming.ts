import { request as httpRequest, type IncomingMessage } from 'node:http';
import { sql } from 'kysely';
import type { TestContext } from './app.js';

/** What the streaming-export suites share: who holds a connection, waiting for it to change, a raw download. */

/** Connections of this database other than the asking one that are running or holding a transaction. */
export async function busyConnections(ctx: TestContext): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid() and state is not null and state <> 'idle'`.execute(ctx.db);
  return Number(rows[0]!.n);
}

/** Polls `condition` (every 25 ms, up to 10 s); throws naming `what` if it never holds. */
export async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never happened: ${what}`);
}

/** A GET whose body the caller reads (or stops reading) at its own pace. */
export function openDownload(url: string, headers: Record<string, string>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, resolve);
    req.on('error', reject);
    req.end();
  });
}
