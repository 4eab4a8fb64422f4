import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryWriteMarks, parseLsn, primaryOnly, replicaRouting, type ReadRouting } from '../../src/platform/db/read-routing.js';
import { createTestContext } from '../support/app.js';
import { asRuntimeRole, freshDatabase } from '../support/database.js';
import { bearer, createUser, tokenFor } from '../support/factories.js';

/**
 * docs/scaling.md, the read replica: what the routing does without one, and with one it cannot use (here
 * the primary itself, which is no standby). The replica in use, read-your-writes across instances and a
 * replica stopped under two instances: test/cluster/scale-out.test.ts (npm run test:cluster).
 */
const silent = { warn: () => undefined };

async function until(routing: ReadRouting, state: string): Promise<void> {
  for (let i = 0; i < 100 && routing.status()?.state !== state; i += 1) await sleep(50);
}

describe('read routing: the reads that may use a replica', async () => {
  const owner = await freshDatabase();
  const database = await asRuntimeRole(owner);
  // "Replica": the primary itself. It answers, but pg_is_in_recovery() is false: never used.
  const routing = replicaRouting({ primary: database.db, replicaUrl: database.url, maxLagMs: 5_000, marks: memoryWriteMarks(), log: silent, probeEveryMs: 100 });
  const ctx = await createTestContext({ database, reads: routing });
  afterAll(async () => {
    await ctx.close();
    await routing.close();
    await owner.close();
  });

  it('reads WAL positions as numbers that order as the WAL does', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('16/B374D848')).toBe(0x16b374d848n);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
  });

  it('without a replica: every read on the primary, counted, and /health has no replica field', async () => {
    const none = primaryOnly();
    const db = database.db;
    expect(await none.executorFor(db, 'someone')).toBe(db);
    await db.transaction().execute(async (trx) => expect(await none.executorFor(trx, 'someone')).toBe(trx));
    expect(Object.fromEntries(none.counts())).toEqual({ 'primary:no_replica': 1, 'primary:in_transaction': 1 });
    expect(none.status()).toBeNull();
    const plain = await createTestContext();
    try {
      const health = await plain.app.inject({ method: 'GET', url: '/health' });
      expect(health.json()).not.toHaveProperty('replica');
    } finally {
      await plain.close();
    }
  });

  it('a server that is no standby is never read: reads go to the primary, /health says so, the endpoints answer', async () => {
    await until(routing, 'unreachable');
    expect(routing.status()).toEqual({ state: 'unreachable', lag_ms: null, reads: 'primary' });
    expect(await routing.executorFor(database.db, 'someone')).toBe(database.db);
    expect(routing.counts().get('primary:replica_unavailable')).toBeGreaterThanOrEqual(1);

    const health = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'ok', database: 'ok', replica: { state: 'unreachable', lag_ms: null, reads: 'primary' } });
    const admin = await createUser(ctx, { role: 'admin' });
    const headers = bearer(await tokenFor(ctx, admin));
    for (const url of ['/api/v1/audit', '/api/v1/controls/effectiveness', '/api/v1/controls/heat-map', '/api/v1/dashboard', '/api/v1/bras', '/api/v1/mitigation-actions']) {
      expect([url, (await ctx.app.inject({ method: 'GET', url, headers })).statusCode]).toEqual([url, 200]);
    }
  });

  it("keeps a caller's last WAL position for read-your-writes, and forgets it after its time", async () => {
    const marks = memoryWriteMarks();
    await marks.set('user-1', 42n, 60_000);
    await marks.set('user-2', 7n, 1);
    await sleep(5);
    expect(await marks.get('user-1')).toBe(42n);
    expect(await marks.get('user-2')).toBeNull();
    expect(await marks.get('user-3')).toBeNull();
    const own = memoryWriteMarks();
    const noting = replicaRouting({ primary: database.db, replicaUrl: database.url, maxLagMs: 5_000, marks: own, log: silent, probeEveryMs: 60_000 });
    try {
      await noting.noteWrite('user-4');
      expect(await own.get('user-4')).toBeGreaterThan(0n);
    } finally {
      await noting.close();
    }
  });
});
