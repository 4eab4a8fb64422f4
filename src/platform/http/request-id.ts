import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Printable ASCII, the space included (as C's isprint); control characters and non-ASCII are not. */
const PRINTABLE = /^[\x20-\x7e]{1,128}$/;

/** D2.1: an incoming X-Request-Id of at most 128 printable characters is reused; otherwise a UUID. */
export function requestIdFor(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  if (typeof incoming === 'string' && PRINTABLE.test(incoming) && incoming.trim() !== '') return incoming;
  return randomUUID();
}
