import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries } from '../support/audit.js';
import { cast } from '../support/cast.js';
import { manualClock, startReceiver } from '../support/webhook-receiver.js';
import { dispatcherFor, registerFor } from './support.js';

const HOUR = 3_600_000;

/** 24 hours of failures, on an injected clock: nothing waits. */
describe('an endpoint failing for 24 hours is disabled, audited, and raises a system alert', async () => {
  const ctx = await createTestContext({ env: { WEBHOOKS_ALLOW_LOOPBACK: 'true' } });
  const w = await cast(ctx);
  const { call } = w;
  let answer = 500;
  const receiver = await startReceiver({ answer: () => answer });
  const endpoint = await registerFor(call, w.admin, receiver, ['bra.approved', 'bra.cancelled']);
  const firstTest = (await call(w.admin, 'POST', `/webhooks/${endpoint.id}/test`)).json().data;
  const clock = manualClock();
  // The jitter's random source is fixed, so the number of attempts in 24 hours is too.
  const dispatcher = dispatcherFor(ctx, { now: clock.now, random: () => 0.5 });

  it('keeps retrying with backoff for 24 hours while the endpoint stays enabled', async () => {
    await dispatcher.round();
    const started = clock.now().getTime();
    let attempts = 1;
    // Each retry waits for its backoff; 23 hours later the endpoint is still enabled.
    while (clock.now().getTime() - started < 23 * HOUR) {
      const [delivery] = (await call(w.admin, 'GET', `/webhooks/${endpoint.id}/deliveries`)).json().data;
      expect(delivery.status).toBe('pending');
      clock.advance(Math.max(0, new Date(delivery.next_attempt_at).getTime() - clock.now().getTime()));
      await dispatcher.round();
      attempts += 1;
    }
    expect(receiver.received.length).toBe(attempts);
    // 30 s doubling to the 1 h cap, each wait 0.75 of its ceiling: the first attempt and 37 retries within 23 hours.
    expect(attempts).toBe(38);
    const read = (await call(w.admin, 'GET', `/webhooks/${endpoint.id}`)).json().data;
    expect(read).toMatchObject({ enabled: true, disabled_reason: null, failing_since: expect.stringMatching(/Z$/) });
    expect(receiver.allVerified).toBe(true);
  });

  it('after 24 hours the delivery fails for good and the endpoint is disabled, with an audit entry and a system alert', async () => {
    clock.advance(2 * HOUR);
    await dispatcher.round();
    const [delivery] = (await call(w.admin, 'GET', `/webhooks/${endpoint.id}/deliveries`)).json().data;
    expect(delivery).toMatchObject({ id: firstTest.id, status: 'failed', last_status_code: 500, next_attempt_at: null });
    const read = (await call(w.admin, 'GET', `/webhooks/${endpoint.id}`)).json().data;
    expect(read.enabled).toBe(false);
    expect(read.disabled_reason).toMatch(/failed for 24 hours/);

    const [entry] = await auditEntries(ctx, { entityType: 'webhook', entityId: endpoint.id, action: 'update' });
    expect(entry).toMatchObject({ enterprise_id: w.enterprise.id, user_id: null, status: 'success' });
    expect(entry!.action_details).toMatchObject({ operation: 'webhooks.dispatcher.disable', enabled: { from: true, to: false } });
    expect(JSON.stringify(entry)).not.toContain(endpoint.secret.slice(6));

    const alerts = await ctx.db.selectFrom('system_alerts').selectAll().where('enterprise_id', '=', w.enterprise.id).execute();
    expect(alerts).toEqual([expect.objectContaining({ type: 'system', status: 'open', title: 'Webhook endpoint disabled' })]);
    expect(alerts[0]!.message).toContain(endpoint.id);
    expect(alerts[0]!.message).toContain('Integrations screen');
  });

  it('a disabled endpoint gets nothing: new events are not queued for it, and retry or test answer 409', async () => {
    const sent = receiver.received.length;
    const bra = await ctx.db
      .insertInto('bras')
      .values({ enterprise_id: w.enterprise.id, name: 'To cancel', legal_entity_id: w.entity.id, status: 'in_progress', period: 'FY', assessor: 'A' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await call(w.admin, 'POST', `/bras/${bra.id}/cancel`, {})).statusCode).toBe(200);
    clock.advance(HOUR);
    await dispatcher.round();
    expect(receiver.received).toHaveLength(sent);
    expect((await call(w.admin, 'GET', `/webhooks/${endpoint.id}/deliveries`)).json().pagination.total).toBe(1);
    const retry = await call(w.admin, 'POST', `/webhooks/${endpoint.id}/deliveries/${firstTest.id}/retry`);
    expect(retry.statusCode).toBe(409);
    expect(retry.json().code).toBe('INVALID_STATE');
    expect((await call(w.admin, 'POST', `/webhooks/${endpoint.id}/test`)).statusCode).toBe(409);
  });

  it('enabled again by its admin, a retried delivery goes out with the same event id and a fresh 24 hours', async () => {
    answer = 204;
    const enabled = await call(w.admin, 'PATCH', `/webhooks/${endpoint.id}`, { enabled: true });
    expect(enabled.json().data).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    const retry = await call(w.admin, 'POST', `/webhooks/${endpoint.id}/deliveries/${firstTest.id}/retry`);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().data).toMatchObject({ status: 'pending', next_attempt_at: expect.stringMatching(/Z$/) });
    clock.advance(HOUR);
    await dispatcher.round();
    const last = receiver.received.at(-1)!;
    expect(last).toMatchObject({ id: firstTest.event_id, answered: 204 });
    expect(receiver.allVerified).toBe(true);
    const [delivery] = (await call(w.admin, 'GET', `/webhooks/${endpoint.id}/deliveries`)).json().data;
    expect(delivery).toMatchObject({ status: 'delivered', last_status_code: 204 });
    const retried = await auditEntries(ctx, { entityType: 'webhook', entityId: endpoint.id, userId: w.admin.id });
    expect(retried.at(-1)!.action_details).toMatchObject({ operation: 'webhooks.deliveries.retry', delivery_retried: firstTest.id });
  });
});
