import { describe, expect, it } from 'vitest';
import type { Resolve } from '../../src/platform/net/guarded-lookup.js';
import { createTestContext } from '../support/app.js';
import { cast } from '../support/cast.js';
import { startReceiver } from '../support/webhook-receiver.js';
import { dispatcherFor } from './support.js';

/**
 * The address check happens when the dispatcher connects, after DNS: a name registered while it pointed
 * outside, or a row registered while loopback was allowed, is refused at the moment it points inside.
 * WEBHOOKS_ALLOW_LOOPBACK is off here, as in production.
 */
describe('SSRF: internal addresses refused at connect time, after DNS resolution', async () => {
  const ctx = await createTestContext();
  const w = await cast(ctx);
  const { call } = w;
  const receiver = await startReceiver();

  /** What a DNS server under an attacker's control answers for the name. */
  const pointing =
    (address: string): Resolve =>
    async (hostname) =>
      hostname === 'rebind.example.test' ? [{ address, family: address.includes(':') ? 6 : 4 }] : [];

  async function queuedTestTo(url: string) {
    const endpoint = await ctx.db
      .insertInto('webhook_endpoints')
      .values({ enterprise_id: w.enterprise.id, url, event_types: ['bra.approved'], secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    const test = await call(w.admin, 'POST', `/webhooks/${endpoint.id}/test`);
    expect(test.statusCode, test.body).toBe(201);
    return endpoint.id;
  }

  async function lastAttempt(endpointId: string) {
    const [delivery] = (await call(w.admin, 'GET', `/webhooks/${endpointId}/deliveries`)).json().data;
    return delivery;
  }

  it('a name registered through the API, that resolves to 127.0.0.1 when the dispatcher connects, is refused', async () => {
    const registered = await call(w.admin, 'POST', '/webhooks', { url: `https://rebind.example.test:${receiver.port}/hooks`, event_types: ['bra.approved'] });
    expect(registered.statusCode, registered.body).toBe(201);
    const id = registered.json().data.id;
    await call(w.admin, 'POST', `/webhooks/${id}/test`);
    await dispatcherFor(ctx, { sender: { allowLoopback: false, resolve: pointing('127.0.0.1') } }).round();
    expect(await lastAttempt(id)).toMatchObject({
      status: 'pending',
      attempt_count: 1,
      last_status_code: null,
      last_error: 'refused at connect: rebind.example.test resolves to 127.0.0.1 is a loopback address',
    });
    expect(receiver.received).toEqual([]);
  });

  it.each(['10.0.0.7', '169.254.169.254', '::1', 'fd00::5', '::ffff:192.168.0.1'])('a name resolving to %s is refused', async (address) => {
    const id = await queuedTestTo(`https://rebind.example.test:${receiver.port}/hooks`);
    await dispatcherFor(ctx, { sender: { allowLoopback: false, resolve: pointing(address) } }).round();
    expect((await lastAttempt(id)).last_error).toMatch(/^refused at connect: rebind\.example\.test resolves to /);
  });

  it('the real resolver: localhost (127.0.0.1) is refused once loopback is no longer allowed', async () => {
    const id = await queuedTestTo(`http://localhost:${receiver.port}/hooks`);
    await dispatcherFor(ctx, { sender: { allowLoopback: false } }).round();
    expect((await lastAttempt(id)).last_error).toMatch(/^refused at connect: localhost resolves to (127\.0\.0\.1|::1) is a loopback address$/);
    expect(receiver.received).toEqual([]);
  });

  it.each([`http://127.0.0.1:PORT/hooks`, `http://[::1]:PORT/hooks`, 'https://169.254.169.254/latest/meta-data/', 'https://10.1.2.3/in'])(
    'a literal address %s (no DNS) is refused the same way',
    async (url) => {
      const id = await queuedTestTo(url.replace('PORT', String(receiver.port)));
      await dispatcherFor(ctx, { sender: { allowLoopback: false } }).round();
      expect((await lastAttempt(id)).last_error).toMatch(/^refused at connect: /);
      expect(receiver.received).toEqual([]);
    },
  );

  it('the same loopback receiver is reached when loopback is allowed: the refusals above are the check, not the network', async () => {
    const id = await queuedTestTo(`http://127.0.0.1:${receiver.port}/hooks`);
    await dispatcherFor(ctx, { sender: { allowLoopback: true } }).round();
    expect(await lastAttempt(id)).toMatchObject({ status: 'delivered', last_status_code: 204 });
    expect(receiver.received.map((r) => r.type)).toEqual(['webhook.test']);
  });
});
