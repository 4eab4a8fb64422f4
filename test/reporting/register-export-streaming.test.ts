import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { REGISTER_COLUMNS } from '../../src/modules/reporting/register.schemas.js';
import { createTestContext } from '../support/app.js';
import { sessionHeaders } from '../support/api.js';
import { busyConnections, openDownload, until } from '../support/streaming.js';
import { createBraEnterprise } from '../support/bras-factories.js';
import { createUser } from '../support/factories.js';
import { bulkRegister, FORMULA_SCENARIO, xlsxRows } from './register-bulk.js';

const ENTITIES = 1_000;
const SCENARIOS = 20;
const ROWS = ENTITIES * SCENARIOS;

/**
 * The register export streams from a cursor with back-pressure in both formats, and lets go of its
 * connection when the client does (as the audit export, D7.6).
 */
describe('risk register export streaming', async () => {
  const ctx = await createTestContext();
  const headers = sessionHeaders(ctx);
  const enterprise = await createBraEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  await bulkRegister(ctx, enterprise.id, { entities: ENTITIES, scenariosPerBra: SCENARIOS });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;

  it.each(['csv', 'xlsx'] as const)(
    '%s: a client that stops reading holds the export at the cursor; when it disconnects the connection is released at once',
    async (format) => {
      const response = await openDownload(`${base}/api/v1/risk-register/export?format=${format}`, await headers(admin));
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
    },
  );

  it('a full XLSX export still completes afterwards: every row once, formula text kept as text (the pool was not left short)', async () => {
    const response = await openDownload(`${base}/api/v1/risk-register/export?format=xlsx`, await headers(admin));
    expect(response.statusCode).toBe(200);
    const chunks: Buffer[] = [];
    for await (const chunk of response as AsyncIterable<Buffer>) chunks.push(chunk);
    const nameColumn = REGISTER_COLUMNS.indexOf('scenario_name');
    let header: unknown[] | undefined;
    let rows = 0;
    let formulaRows = 0;
    for await (const values of xlsxRows(Buffer.concat(chunks))) {
      if (header === undefined) header = values;
      else {
        rows += 1;
        // Text stays text: never a formula cell, the formula-like name with its leading '.
        if (typeof values[nameColumn] !== 'string') throw new Error(`row ${rows}: scenario_name ${JSON.stringify(values[nameColumn])} is not text`);
        if (values[nameColumn] === `'${FORMULA_SCENARIO}`) formulaRows += 1;
        if (values.some((cell) => typeof cell === 'object' && cell !== null && 'formula' in cell)) throw new Error(`row ${rows}: a formula cell`);
      }
    }
    expect(header).toEqual([...REGISTER_COLUMNS]);
    expect(rows).toBe(ROWS);
    expect(formulaRows).toBe(ENTITIES);
    await until(async () => (await busyConnections(ctx)) === 0, 'the export connection released after the last row');
  });
});
