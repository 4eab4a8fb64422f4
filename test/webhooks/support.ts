import { afterAll } from 'vitest';
import { createDispatcher, type DispatcherOptions } from '../../src/modules/webhooks/webhook-dispatcher.js';
import { createSender, type SenderOptions } from '../../src/modules/webhooks/webhook-sender.js';
import type { TestContext } from '../support/app.js';
import type { Call } from '../support/cast.js';
import type { TestUser } from '../support/factories.js';

export const silentLog = { error: () => undefined, warn: () => undefined };

/**
 * A dispatcher over the suite's database, as an instance of the service would run it, with its own
 * sender (closed after the file). The suites call its rounds themselves and inject the clock.
 */
export function dispatcherFor(
  ctx: TestContext,
  { sender: senderOptions, ...options }: Partial<Omit<DispatcherOptions, 'sender'>> & { sender?: Partial<SenderOptions> } = {},
) {
  const sender = createSender({ allowLoopback: true, ...senderOptions });
  afterAll(() => sender.close());
  return createDispatcher({ db: ctx.database.db, log: silentLog, ...options, sender });
}

/** Registers an endpoint for the receiver and tells the receiver its secret. */
export async function registerFor(
  call: Call,
  admin: TestUser,
  receiver: { url: string; verifyWith(...secrets: string[]): void },
  eventTypes: string[],
): Promise<{ id: string; secret: string }> {
  const response = await call(admin, 'POST', '/webhooks', { url: receiver.url, event_types: eventTypes });
  if (response.statusCode !== 201) throw new Error(`registration answered ${response.statusCode}: ${response.body}`);
  const data = response.json().data as { id: string; secret: string };
  receiver.verifyWith(data.secret);
  return data;
}
