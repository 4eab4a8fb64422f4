import { afterAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/modules/webhooks/webhook-dispatcher.js';
import { createSender } from '../../src/modules/webhooks/webhook-sender.js';
import { openDatabase } from '../../src/platform/db/engine.js';
import { inTransaction } from '../../src/platform/db/transaction.js';
import { emitEvent } from '../../src/platform/events/outbox.js';
import { createTestContext } from '../support/app.js';
import { createBraWorld } from '../support/bras-factories.js';
import { calls } from '../support/cast.js';
import { startReceiver } from '../support/webhook-receiver.js';
import { registerFor, silentLog } from './support.js';

/**
 * Two service instances, each with its own connection pool and dispatcher, working the same database at
 * the same time: every event reaches every subscribed endpoint exactly once, in order per endpoint.
 */
describe('two service instances deliver each event once', async () => {
  const ctx = await createTestContext({ env: { WEBHOOKS_ALLOW_LOOPBACK: 'true' } });
  const { call } = calls(ctx);
  const second = await openDatabase({ kind: 'postgres', url: ctx.database.url }, { poolSize: 5 });
  afterAll(() => second.close());
  const instance = (db: typeof second.db) => {
    const sender = createSender({ allowLoopback: true });
    afterAll(() => sender.close());
    // Small batches, so that the two instances interleave over many claims.
    return createDispatcher({ db, sender, log: silentLog, fanOutBatch: 7, concurrency: 2, perLease: 3 });
  };
  const a = instance(ctx.database.db);
  const b = instance(second.db);

  it('60 events (30 per enterprise) to 4 endpoints of two enterprises: 120 deliveries, none twice, each endpoint in event order', async () => {
    const worlds = [await createBraWorld(ctx), await createBraWorld(ctx)];
    const endpoints = [];
    for (const world of worlds) {
      for (let i = 0; i < 2; i += 1) {
        const receiver = await startReceiver();
        await registerFor(call, world.admin, receiver, ['bra.created']);
        endpoints.push({ world, receiver });
      }
    }
    const emitted = new Map<string, string[]>();
    for (const world of worlds) {
      const names = Array.from({ length: 30 }, (_, i) => `BRA ${i}`);
      emitted.set(world.enterprise.id, names);
      for (const name of names) {
        await inTransaction(ctx.database.db, ({ trx }) => emitEvent(trx, { enterpriseId: world.enterprise.id, type: 'bra.created', data: { name } }));
      }
    }
    await Promise.all([a.round(), b.round(), a.round(), b.round()]);
    // Whatever the interleaving left (a pass that found the other instance holding the fan-out lock).
    await Promise.all([a.round(), b.round()]);

    for (const { world, receiver } of endpoints) {
      expect(receiver.received).toHaveLength(30);
      expect(new Set(receiver.received.map((r) => r.id)).size).toBe(30);
      expect(receiver.received.map((r) => r.payload.data['name'])).toEqual(emitted.get(world.enterprise.id));
      expect(receiver.allVerified).toBe(true);
    }
    const deliveries = await ctx.db.selectFrom('webhook_deliveries').select(['status', 'attempt_count']).where('event_type', '=', 'bra.created').execute();
    expect(deliveries).toHaveLength(120);
    expect(deliveries.every((d) => d.status === 'delivered' && d.attempt_count === 1)).toBe(true);
  });
});
