import { describe, expect, it, vi } from 'vitest';
import { createTestContext } from '../support/app.js';
import { createBraWorld } from '../support/bras-factories.js';
import { calls } from '../support/cast.js';
import { startReceiver } from '../support/webhook-receiver.js';
import { registerFor } from './support.js';

/** The dispatcher is the webhooks module's job: an app that runs jobs delivers on its own. */
describe('the webhooks.dispatcher job', async () => {
  const ctx = await createTestContext({ jobs: true, env: { WEBHOOKS_ALLOW_LOOPBACK: 'true', WEBHOOKS_DISPATCH_INTERVAL_MS: '100' } });
  const { call } = calls(ctx);

  it('delivers a queued event without anyone driving a round', async () => {
    const w = await createBraWorld(ctx);
    const receiver = await startReceiver();
    const endpoint = await registerFor(call, w.admin, receiver, ['bra.approved']);
    await call(w.admin, 'POST', `/webhooks/${endpoint.id}/test`);
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 20_000, interval: 50 });
    expect(receiver.received[0]!.type).toBe('webhook.test');
    expect(receiver.allVerified).toBe(true);
  });
});
