import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { hostOf, refusedAddress } from '../../platform/net/address-safety.js';
import { guardedLookup, RefusedAddress, type Resolve } from '../../platform/net/guarded-lookup.js';

export const SEND_TIMEOUT_MS = 10_000;
/** What is read of a receiver's answer: its status matters, not its body. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

/** A status code when the receiver answered (2xx is delivered), otherwise why nothing was delivered. */
export interface SendResult {
  statusCode: number | null;
  error: string | null;
}

export interface SenderOptions {
  /** WEBHOOKS_ALLOW_LOOPBACK: loopback receivers (development and tests). */
  allowLoopback: boolean;
  resolve?: Resolve;
  timeoutMs?: number;
}

/**
 * POSTs deliveries. The address check happens at connect time: the socket's DNS lookup is ours, and it
 * refuses a name if any address it resolves to is private, link-local or loopback, so a name that pointed
 * outside at registration and points inside now (DNS rebinding) is still refused. Literal addresses skip
 * DNS and are checked the same way. Redirects are not followed (a 3xx is a failed attempt), an attempt is
 * abandoned after 10 s, and at most 64 KiB of an answer is read. Connections are kept alive between
 * deliveries to the same host.
 */
export function createSender({ allowLoopback, resolve, timeoutMs = SEND_TIMEOUT_MS }: SenderOptions) {
  const lookup = guardedLookup(allowLoopback, resolve);
  const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

  function send(target: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const url = new URL(target);
    const host = hostOf(url);
    if (isIP(host) !== 0) {
      const refused = refusedAddress(host, allowLoopback);
      if (refused !== null) return Promise.resolve({ statusCode: null, error: `refused at connect: ${refused}` });
    }
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve) => {
      let settled = false;
      const done = (result: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const request = client.request(
        url,
        {
          method: 'POST',
          agent: agents[url.protocol as 'http:' | 'https:'],
          lookup,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'risk-assurance-webhooks/1',
          },
        },
        (response) => {
          const statusCode = response.statusCode ?? 0;
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            // Enough of it: the status is what counts; the socket is not reused.
            if (read > MAX_RESPONSE_BYTES) {
              response.destroy();
              done(outcome(statusCode));
            }
          });
          response.on('end', () => done(outcome(statusCode)));
          response.on('error', () => done(outcome(statusCode)));
        },
      );
      const timer = setTimeout(() => {
        request.destroy();
        done({ statusCode: null, error: `no answer within ${timeoutMs / 1000} s` });
      }, timeoutMs);
      request.on('error', (error) =>
        done({ statusCode: null, error: error instanceof RefusedAddress ? error.message : `connection failed: ${error.message}` }),
      );
      request.end(body);
    });
  }

  return {
    send,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

function outcome(statusCode: number): SendResult {
  if (statusCode >= 200 && statusCode < 300) return { statusCode, error: null };
  if (statusCode >= 300 && statusCode < 400) return { statusCode, error: 'redirect not followed' };
  return { statusCode, error: `the receiver answered ${statusCode}` };
}

export type Sender = ReturnType<typeof createSender>;
