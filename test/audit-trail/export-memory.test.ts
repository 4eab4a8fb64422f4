import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_PUBLIC_URL } from '../support/app.js';
import { freshDatabase } from '../support/database.js';
import { sessionHeaders } from '../support/api.js';
import { ensureBuilt, startService, type ServiceProcess } from '../support/service-process.js';
import { openDownload } from '../support/streaming.js';
import { createEnterprise, createUser } from '../support/factories.js';
import { bulkAuditEntries } from '../support/governance-factories.js';

const ENTRIES = 200_000;
const MB = 1024 * 1024;

/** The resident set of a process, from /proc (Linux). */
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/**
 * D7.6: the export's memory does not grow with the number of rows. The service runs as a process of its
 * own (src/main.ts on this suite's database), so its RSS is measured alone while this process reads the
 * download and keeps none of it.
 */
describe('audit export memory', async () => {
  const database = await freshDatabase();
  const ctx = await createTestContext({ database });
  const headers = sessionHeaders(ctx);
  const enterprise = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  await bulkAuditEntries(ctx, enterprise.id, ENTRIES, { start: new Date('2026-05-01T00:00:00Z') });
  // A tenth of the size warms the service up: were memory to grow with rows, the full export would need
  // about ten times what this one did.
  const small = await createEnterprise(ctx);
  const smallAdmin = await createUser(ctx, { role: 'admin', enterpriseId: small.id });
  await bulkAuditEntries(ctx, small.id, ENTRIES / 10, { start: new Date('2026-05-01T00:00:00Z') });

  // The service as deployed (dist/), on this suite's database, as a process whose RSS is its own.
  let running: ServiceProcess | undefined;
  afterAll(() => running?.stop());
  async function serviceProcess(): Promise<{ base: string; pid: number }> {
    if (database.url === null) throw new Error('the service process needs a database URL');
    ensureBuilt();
    // The old generation capped at 128 MB: the collector then runs as the heap nears what a deployment would
    // give it, whatever the Node.js version's own growth heuristics (Node 24's let garbage reach +160 MB on a
    // loaded machine). An export that held its file (tens of MB) or its rows would run out of that heap.
    running ??= await startService({ NODE_OPTIONS: '--max-old-space-size=128', DATABASE_URL: database.url, PUBLIC_URL: TEST_PUBLIC_URL, RATE_LIMIT_PER_MINUTE: '100000', RATE_LIMIT_PER_HOUR: '1000000' });
    return { base: running.baseUrl, pid: running.child.pid! };
  }

  /** Reads the whole download, counting bytes and records without keeping any of it. */
  async function exportAll(base: string, format: 'csv' | 'json', user = admin) {
    const response = await openDownload(`${base}/api/v1/audit/export?format=${format}`, await headers(user));
    const marker = Buffer.from(format === 'csv' ? '\r\n' : '{"id":');
    let bytes = 0;
    let records = 0;
    let carry = Buffer.alloc(0);
    for await (const chunk of response as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      const window = Buffer.concat([carry, chunk]);
      let last = -1;
      for (let at = window.indexOf(marker); at !== -1; at = window.indexOf(marker, at + marker.length)) {
        records += 1;
        last = at;
      }
      // Keep the tail that might hold the start of a marker cut by the chunk boundary (never a counted one).
      const keepFrom = Math.max(last === -1 ? 0 : last + marker.length, window.length - marker.length + 1);
      carry = Buffer.from(window.subarray(keepFrom));
    }
    return { status: response.statusCode, bytes, records };
  }

  it.each(['csv', 'json'] as const)(`the service exports ${ENTRIES.toLocaleString('en')} entries as %s with RSS growth well under the file's size held in memory`, async (format) => {
    const { base, pid } = await serviceProcess();
    const warm = await exportAll(base, format, smallAdmin);
    expect(warm.records).toBe(format === 'csv' ? ENTRIES / 10 + 1 : ENTRIES / 10);
    const before = rssOf(pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssOf(pid));
    }, 10);
    let bytes = 0;
    try {
      const result = await exportAll(base, format);
      expect(result.status).toBe(200);
      expect(result.records).toBe(format === 'csv' ? ENTRIES + 1 : ENTRIES);
      expect(result.bytes).toBeGreaterThan(ENTRIES * 200);
      bytes = result.bytes;
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, rssOf(pid));
    const growthMb = (peak - before) / MB;
    const fileMb = bytes / MB;
    process.stdout.write(
      `audit export ${format}: ${ENTRIES} entries (${fileMb.toFixed(0)} MB), service RSS ${Math.round(before / MB)} MB → peak ${Math.round(peak / MB)} MB (+${growthMb.toFixed(1)} MB)\n`,
    );
    // A streamed export grows by a few batches plus what the garbage collector lets pile up before it runs
    // (measured from +1 MB to +57 MB for the same 48 MB CSV, by machine load). One that held the file would
    // grow by at least twice the file (a JavaScript string is UTF-16), and one that held its rows by far more:
    // the bound, one and a half times the file, sits between the two.
    expect(growthMb).toBeLessThan(Math.max(50, 1.5 * fileMb));
  }, 300_000);
});
