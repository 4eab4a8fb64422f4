import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import { Webhook } from 'standardwebhooks';

/** A delivery as the receiver saw it, with which of the secrets it was told verified its signature. */
export interface Received {
  id: string;
  type: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
  headers: Record<string, string>;
  /** Each secret the receiver checks with, and whether the official `standardwebhooks` package accepted it. */
  verified: Record<string, boolean>;
  answered: number;
}

/**
 * A webhook receiver on loopback (port 0) that verifies every request with the official `standardwebhooks`
 * package against the secrets it is given, records it, and answers `answer(n)` for the n-th request (1 = the
 * first; 204 unless told). Closed after the file's tests.
 */
export async function startReceiver(options: { answer?: (n: number) => number } = {}) {
  const received: Received[] = [];
  let secrets: string[] = [];
  let count = 0;
  const server = createServer(async (request, response) => {
    const body = await readBody(request);
    count += 1;
    const answered = options.answer?.(count) ?? 204;
    const headers = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type'].map((name) => [name, String(request.headers[name] ?? '')]),
    );
    const verified = Object.fromEntries(
      secrets.map((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return [secret, true];
        } catch {
          return [secret, false];
        }
      }),
    );
    const payload = JSON.parse(body) as Received['payload'];
    received.push({ id: headers['webhook-id']!, type: payload.type, payload, headers, verified, answered });
    response.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? '' : 'not now');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const receiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    /** The secrets deliveries are verified with from now on. */
    verifyWith(...list: string[]) {
      secrets = list;
    },
    /** Every request verified with every secret it was told to check. */
    get allVerified() {
      return received.every((r) => Object.keys(r.verified).length > 0 && Object.values(r.verified).every(Boolean));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  afterAll(() => receiver.close());
  return receiver;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A clock the suites move by hand: the dispatcher's scheduling reads it, nothing waits. */
export function manualClock(start = new Date()) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}
