import { NO_TERMS } from '../../src/platform/versions/change-terms.js';
import { describe, expect, it } from 'vitest';
import { createBraTransitionsService } from '../../src/modules/bras/review/transitions.service.js';
import type { Caller } from '../../src/platform/auth/principal.js';
import { inTransaction } from '../../src/platform/db/transaction.js';
import { createTestContext } from '../support/app.js';
import { addScenarioLink, createBra, createBraWorld, rateBoth } from '../support/bras-factories.js';
import { calls } from '../support/cast.js';
import { manualClock, startReceiver } from '../support/webhook-receiver.js';
import { dispatcherFor, registerFor } from './support.js';

/**
 * Deliveries end to end: a receiver on loopback verifies every request with the official `standardwebhooks`
 * package. The dispatcher's rounds are driven by the suite, with an injected clock: nothing waits.
 */
describe('webhook deliveries, verified with the standardwebhooks package', async () => {
  const ctx = await createTestContext({ env: { WEBHOOKS_ALLOW_LOOPBACK: 'true' } });
  const { call } = calls(ctx);

  async function reviewableBra(world: Awaited<ReturnType<typeof createBraWorld>>) {
    const bra = await createBra(ctx, { enterpriseId: world.enterprise.id, legalEntityId: world.entity.id, status: 'under_review' });
    const link = await addScenarioLink(ctx, bra);
    await rateBoth(ctx, link, [4, 4], [2, 2]);
    return bra;
  }

  it('an approval sends one bra.approved with the snapshot id, signed so that the receiver verifies it', async () => {
    const w = await createBraWorld(ctx);
    const receiver = await startReceiver();
    const endpoint = await registerFor(call, w.admin, receiver, ['bra.approved']);
    const bra = await reviewableBra(w);
    const approved = await call(w.admin, 'POST', `/bras/${bra.id}/approve`, { final_comment: 'Accepted' });
    expect(approved.statusCode, approved.body).toBe(200);
    const dispatcher = dispatcherFor(ctx);
    await dispatcher.round();
    await dispatcher.round();

    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    expect(receiver.allVerified).toBe(true);
    expect(delivery!.payload).toEqual({
      type: 'bra.approved',
      timestamp: expect.stringMatching(/Z$/),
      data: { enterprise_id: w.enterprise.id, bra_id: bra.id, name: bra.name, snapshot_id: approved.json().data.snapshot_id, approved_by: w.admin.id },
    });
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(delivery!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const list = (await call(w.admin, 'GET', `/webhooks/${endpoint.id}/deliveries`)).json();
    expect(list.data).toEqual([
      expect.objectContaining({ event_id: delivery!.id, event_type: 'bra.approved', status: 'delivered', attempt_count: 1, last_status_code: 204, last_error: null, next_attempt_at: null }),
    ]);
    // Nothing is left in the outbox once fanned out.
    expect(await ctx.db.selectFrom('event_outbox').select('seq').where('enterprise_id', '=', w.enterprise.id).execute()).toEqual([]);
  });

  it('a receiver that fails three times then succeeds gets exactly one accepted delivery, and the log shows four attempts', async () => {
    const w = await createBraWorld(ctx);
    const receiver = await startReceiver({ answer: (n) => (n <= 3 ? 500 : 200) });
    const endpoint = await registerFor(call, w.admin, receiver, ['bra.approved']);
    const bra = await reviewableBra(w);
    expect((await call(w.admin, 'POST', `/bras/${bra.id}/approve`, {})).statusCode).toBe(200);
    // The schedule is injected (no wait between attempts); the backoff itself is tested below and in retry-schedule.test.ts.
    await dispatcherFor(ctx, { retryDelay: () => 0 }).round();

    expect(receiver.received.map((r) => r.answered)).toEqual([500, 500, 500, 200]);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
    expect(receiver.allVerified).toBe(true);
    const [delivery] = (await call(w.admin, 'GET', `/webhooks/${endpoint.id}/deliveries`)).json().data;
    expect(delivery).toMatchObject({ status: 'delivered', attempt_count: 4, last_status_code: 200, last_error: null, delivered_at: expect.stringMatching(/Z$/) });
  });

  it('a failed attempt waits for its backoff (exponential, with jitter), then is tried again', async () => {
    const w = await createBraWorld(ctx);
    const receiver = await startReceiver({ answer: (n) => (n === 1 ? 503 : 204) });
    const endpoint = await registerFor(call, w.admin, receiver, ['bra.approved']);
    await call(w.admin, 'POST', `/webhooks/${endpoint.id}/test`);
    const clock = manualClock();
    const dispatcher = dispatcherFor(ctx, { now: clock.now, random: () => 0.5 });
    await dispatcher.round();
    const [waiting] = (await call(w.admin, 'GET', `/webhooks/${endpoint.id}/deliveries`)).json().data;
    expect(waiting).toMatchObject({ status: 'pending', attempt_count: 1, last_status_code: 503, last_error: 'the receiver answered 503' });
    // First retry: 30 s ceiling, jitter 0.5 → 22.5 s after the attempt.
    expect(new Date(waiting.next_attempt_at).getTime() - clock.now().getTime()).toBe(22_500);
    expect((await call(w.admin, 'GET', `/webhooks/${endpoint.id}`)).json().data.failing_since).toEqual(clock.now().toISOString());
    clock.advance(22_000);
    await dispatcher.round();
    expect(receiver.received).toHaveLength(1);
    clock.advance(500);
    await dispatcher.round();
    expect(receiver.received.map((r) => r.answered)).toEqual([503, 204]);
    expect(receiver.allVerified).toBe(true);
    // Healthy again: the failure state went with the success.
    expect((await call(w.admin, 'GET', `/webhooks/${endpoint.id}`)).json().data.failing_since).toBeNull();
  });

  it('a rolled-back change sends nothing: the event was written in its transaction', async () => {
    const w = await createBraWorld(ctx);
    const receiver = await startReceiver();
    await registerFor(call, w.admin, receiver, ['bra.approved', 'bra.status_changed']);
    const bra = await reviewableBra(w);
    const caller: Caller = {
      userId: w.admin.id,
      email: w.admin.email,
      fullName: w.admin.fullName,
      role: 'admin',
      enterpriseId: w.enterprise.id,
      sessionId: null,
      entityAssignments: [],
      ip: '127.0.0.1',
      userAgent: null,
      operation: 'bras.approve',
    };
    // The approval succeeds inside a larger unit of work that then fails: all of it rolls back.
    await expect(
      inTransaction(ctx.database.db, async ({ trx }) => {
        await createBraTransitionsService({ db: trx }).approve(caller, bra.id, {}, NO_TERMS);
        expect(await trx.selectFrom('event_outbox').select('type').where('enterprise_id', '=', w.enterprise.id).execute()).toHaveLength(2);
        throw new Error('a later step failed');
      }),
    ).rejects.toThrow('a later step failed');
    await dispatcherFor(ctx).round();
    expect(receiver.received).toEqual([]);
    expect((await call(w.admin, 'GET', `/bras/${bra.id}`)).json().data.status).toBe('under_review');
    expect(await ctx.db.selectFrom('event_outbox').select('seq').where('enterprise_id', '=', w.enterprise.id).execute()).toEqual([]);
  });

  it('a committed event survives a restart: a new dispatcher finds it in the outbox', async () => {
    const w = await createBraWorld(ctx);
    const receiver = await startReceiver();
    await registerFor(call, w.admin, receiver, ['bra.approved']);
    const bra = await reviewableBra(w);
    await call(w.admin, 'POST', `/bras/${bra.id}/approve`, {});
    // No dispatcher ran while the change committed; one started afterwards delivers it.
    const outbox = await ctx.db.selectFrom('event_outbox').select('type').where('enterprise_id', '=', w.enterprise.id).orderBy('seq').execute();
    expect(outbox).toEqual([{ type: 'bra.status_changed' }, { type: 'bra.approved' }]);
    await dispatcherFor(ctx).round();
    expect(receiver.received.map((r) => r.type)).toEqual(['bra.approved']);
  });

  it('rotation: during the grace period every delivery carries both signatures and each secret verifies; after it only the new one', async () => {
    const w = await createBraWorld(ctx);
    const receiver = await startReceiver();
    const endpoint = await registerFor(call, w.admin, receiver, ['bra.approved']);
    const rotated = await call(w.admin, 'POST', `/webhooks/${endpoint.id}/rotate-secret`);
    const { secret, previous_secret_expires_at: graceUntil } = rotated.json().data;
    expect(new Date(graceUntil).getTime() - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    receiver.verifyWith(endpoint.secret, secret);
    await call(w.admin, 'POST', `/webhooks/${endpoint.id}/test`);
    const clock = manualClock();
    const dispatcher = dispatcherFor(ctx, { now: clock.now });
    await dispatcher.round();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(receiver.received[0]!.verified).toEqual({ [endpoint.secret]: true, [secret]: true });

    clock.advance(new Date(graceUntil).getTime() - clock.now().getTime() + 1_000);
    await call(w.admin, 'POST', `/webhooks/${endpoint.id}/test`);
    await dispatcher.round();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(receiver.received[1]!.verified).toEqual({ [endpoint.secret]: false, [secret]: true });
    expect(receiver.received[1]!.type).toBe('webhook.test');
  });

  it('in order per endpoint: nothing behind a failing delivery goes before it', async () => {
    const w = await createBraWorld(ctx);
    const receiver = await startReceiver({ answer: (n) => (n === 1 ? 500 : 204) });
    const endpoint = await registerFor(call, w.admin, receiver, ['bra.approved']);
    const queued = [];
    for (let i = 0; i < 3; i += 1) queued.push((await call(w.admin, 'POST', `/webhooks/${endpoint.id}/test`)).json().data.event_id);
    const clock = manualClock();
    const dispatcher = dispatcherFor(ctx, { now: clock.now });
    await dispatcher.round();
    expect(receiver.received.map((r) => r.id)).toEqual([queued[0]]);
    clock.advance(3_600_000);
    await dispatcher.round();
    expect(receiver.received.map((r) => r.id)).toEqual([queued[0], queued[0], queued[1], queued[2]]);
    expect(receiver.allVerified).toBe(true);
  });

  it('an endpoint receives only the types it subscribes to, and only its own enterprise’s events', async () => {
    const w = await createBraWorld(ctx);
    const receiver = await startReceiver();
    const otherReceiver = await startReceiver();
    await registerFor(call, w.admin, receiver, ['bra.cancelled']);
    await registerFor(call, w.otherAdmin, otherReceiver, ['bra.cancelled', 'bra.approved', 'bra.status_changed']);
    const bra = await reviewableBra(w);
    const cancelled = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, status: 'in_progress' });
    await call(w.admin, 'POST', `/bras/${bra.id}/approve`, {});
    await call(w.admin, 'POST', `/bras/${cancelled.id}/cancel`, { cancellation_reason: 'Duplicate' });
    await dispatcherFor(ctx).round();
    expect(receiver.received.map((r) => [r.type, r.payload.data['bra_id']])).toEqual([['bra.cancelled', cancelled.id]]);
    expect(receiver.received[0]!.payload.data).toEqual({ enterprise_id: w.enterprise.id, bra_id: cancelled.id, name: cancelled.name, cancelled_by: w.admin.id });
    expect(otherReceiver.received).toEqual([]);
  });
});
