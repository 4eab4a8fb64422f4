import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { mountProbes, probeClock, probeEvents, releaseSlowProbes } from './probes.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('graceful shutdown (D1: main.ts closes the app on SIGTERM, finishing in-flight requests)', async () => {
  const ctx = await createTestContext({ extend: mountProbes });

  it('app.close() waits for in-flight requests, answers them in full, and does not hang on their keep-alive connections', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;

    // Two requests in flight on keep-alive connections: a JSON answer still being computed, and a stream
    // whose headers already went out.
    const slowStarted = once(probeEvents, 'slow:started');
    const slow = fetch(`${base}/api/v1/probe/slow`, { headers: { 'x-request-id': 'in-flight-1' } }).then(async (response) => ({
      status: response.status,
      requestId: response.headers.get('x-request-id'),
      connection: response.headers.get('connection'),
      body: await response.json(),
    }));
    const streamHeaders = fetch(`${base}/api/v1/probe/stream`);
    const stream = streamHeaders.then(async (response) => ({
      status: response.status,
      body: await response.text(),
    }));
    // Both are in flight when closing begins: the slow handler runs, the stream's headers went out.
    await Promise.all([slowStarted, streamHeaders]);

    const startedAt = Date.now();
    const closed = ctx.app.close().then(() => Date.now());
    // The handlers finish only once closing has begun (the server stopped listening).
    void (async () => {
      while (ctx.app.server.listening) await new Promise((resolve) => setImmediate(resolve));
      releaseSlowProbes();
    })();
    // Bounded: without care, close() waits out the keep-alive timeout (72 s) of the served connections.
    const closedAt = await Promise.race([closed, sleep(5_000).then(() => null)]);
    expect(closedAt, 'app.close() did not resolve within 5 s').not.toBeNull();

    expect(await slow).toEqual({ status: 200, requestId: 'in-flight-1', connection: 'close', body: { data: 'slow done' } });
    expect(await stream).toEqual({ status: 200, body: 'first,last' });
    // close() resolved only after both handlers had finished their work.
    expect(probeClock.slowFinishedAt).toBeGreaterThanOrEqual(startedAt);
    expect(closedAt as number).toBeGreaterThanOrEqual(probeClock.slowFinishedAt);
    expect(closedAt as number).toBeGreaterThanOrEqual(probeClock.streamFinishedAt);
    // And the server no longer accepts connections.
    await expect(fetch(`${base}/health`)).rejects.toThrow();
  });
});
