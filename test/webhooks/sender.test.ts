import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createSender } from '../../src/modules/webhooks/webhook-sender.js';

/** The sender's limits against a loopback server that misbehaves on purpose. */
describe('webhook sender: no redirects, a bounded answer, a time limit', async () => {
  const hits: string[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    request.resume();
    if (request.url === '/redirect') return void response.writeHead(302, { location: '/elsewhere' }).end();
    if (request.url === '/huge') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      // 16 MiB unless the client stops reading first.
      let left = 256;
      const write = () => {
        while (left > 0) {
          left -= 1;
          if (!response.write(chunk)) return void response.once('drain', write);
        }
        response.end();
      };
      response.on('close', () => (left = 0));
      return write();
    }
    if (request.url === '/hang') return void hanging.push(response);
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sender = createSender({ allowLoopback: true });
  // A short limit for the receiver that never answers only: the others keep the real 10 s.
  const impatient = createSender({ allowLoopback: true, timeoutMs: 300 });
  afterAll(async () => {
    sender.close();
    impatient.close();
    for (const response of hanging) response.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': '1', 'webhook-signature': 'v1,x' };

  it('a redirect is a failed attempt, and its target is never requested', async () => {
    expect(await sender.send(`${base}/redirect`, headers, '{}')).toEqual({ statusCode: 302, error: 'redirect not followed' });
    expect(hits).not.toContain('/elsewhere');
  });

  it('a 2xx with an endless body is delivered without reading it all', async () => {
    expect(await sender.send(`${base}/huge`, headers, '{}')).toEqual({ statusCode: 200, error: null });
  });

  it('a receiver that does not answer in time is a failed attempt', async () => {
    expect(await impatient.send(`${base}/hang`, headers, '{}')).toEqual({ statusCode: null, error: 'no answer within 0.3 s' });
  });

  it('a refused connection is a failed attempt that says so', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await sender.send(`http://127.0.0.1:${port}/`, headers, '{}');
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/^connection failed: .*ECONNREFUSED/);
  });
});
