import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { sessionHeaders } from '../support/api.js';
import { busyConnections, openDownload, until } from '../support/streaming.js';
import { createEnterprise, createUser } from '../support/factories.js';
import { bulkAuditEntries } from '../support/governance-factories.js';

/**
 * D7.6: the export streams with back-pressure (CSV by COPY, JSON from a cursor) and lets go of its connection
 * when the client does.
 */
describe('audit export streaming', async () => {
  const ctx = await createTestContext();
  const headers = sessionHeaders(ctx);
  const enterprise = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  await bulkAuditEntries(ctx, enterprise.id, 40_000, { start: new Date('2026-04-01T00:00:00Z') });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;

  it('a client that stops reading holds the JSON export at the cursor; when it disconnects the connection is released at once', async () => {
    const response = await openDownload(`${base}/api/v1/audit/export?format=json`, await headers(admin));
    expect(response.statusCode).toBe(200);
    response.pause();
    try {
      // Back-pressure: the service waits for the socket with its cursor's transaction open (not running, not
      // done). Between fetches the connection is briefly `active`, so wait for the state it settles in.
      await until(async () => {
        const { rows } = await sql<{ state: string }>`
          select state from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`.execute(ctx.db);
        return rows.length === 1 && rows[0]!.state === 'idle in transaction';
      }, 'the export holding its cursor, idle in its transaction');
    } finally {
      response.destroy();
    }
    await until(async () => (await busyConnections(ctx)) === 0, 'the export connection released');
    expect(await busyConnections(ctx)).toBe(0);
  });

  it('a client that stops reading holds the CSV export in its COPY; when it disconnects the COPY ends and the connection is let go', async () => {
    const response = await openDownload(`${base}/api/v1/audit/export?format=csv`, await headers(admin));
    expect(response.statusCode).toBe(200);
    response.pause();
    try {
      // Back-pressure: the server's COPY waits on its socket, one statement still running.
      await until(async () => {
        const { rows } = await sql<{ state: string; query: string }>`
          select state, query from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`.execute(ctx.db);
        return rows.length === 1 && rows[0]!.state === 'active' && rows[0]!.query.startsWith('copy (');
      }, 'the export held in its COPY');
    } finally {
      response.destroy();
    }
    await until(async () => (await busyConnections(ctx)) === 0, 'the COPY ended and its connection let go');
    expect(await busyConnections(ctx)).toBe(0);
  });

  it('a full export still completes afterwards, every entry once (the pool was not left short)', async () => {
    const response = await openDownload(`${base}/api/v1/audit/export?format=csv`, await headers(admin));
    // A chunk may end between a row's \r and its \n: carry that \r into the next chunk so the row counts once.
    let records = 0;
    let carried = '';
    for await (const chunk of response) {
      const text = carried + chunk.toString('latin1');
      records += (text.match(/\r\n/g) ?? []).length;
      carried = text.endsWith('\r') ? '\r' : '';
    }
    expect(records).toBe(40_001);
    await until(async () => (await busyConnections(ctx)) === 0, 'the export connection released after the last row');
  });
});
