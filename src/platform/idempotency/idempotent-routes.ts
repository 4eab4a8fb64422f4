import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest, RouteHandlerMethod, RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { openRequestWork, type RequestWork } from '../db/transaction.js';
import { AppError } from '../errors/app-error.js';
import { addHeaderParameter, addResponses, addSuccessHeaders } from '../http/route-documentation.js';
import { deleteAnswer, findAnswer, storeAnswer, tryLockKey, type StoredAnswer } from './idempotency.repository.js';

/** How long a first answer is kept and replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const MAX_KEY_LENGTH = 255;
/** The headers of the first answer a replay repeats (with its status and body). */
const KEPT_HEADERS = ['content-type', 'etag', 'location'] as const;

interface PendingAnswer {
  requestWork: RequestWork;
  userId: string;
  key: string;
  fingerprint: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set while an Idempotency-Key request holds its unit of work open; services join it through `termsOf(request)`. */
    requestWork: RequestWork | null;
  }
}

const pending = new WeakMap<FastifyRequest, PendingAnswer>();

/**
 * Idempotency-Key (IETF httpapi draft) for the routes that declare `idempotent`. With a key, the platform
 * opens the request's unit of work before the handler (the service joins it: `termsOf(request).work`), and
 * once the answer is serialized stores it in that same transaction and commits: the change and its stored
 * answer exist together or not at all. A retry replays the stored answer byte for byte; the same key with
 * another request is 422; while the first runs, 409. Without a key the route runs as before.
 */
export function attachIdempotency(route: RouteOptions, db: Kysely<DB>): void {
  if (route.config?.idempotent !== true) return;
  const handler = route.handler;
  route.handler = async function idempotentHandler(this: unknown, request: FastifyRequest, reply: FastifyReply) {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || request.principal === null) return (handler as RouteHandlerMethod).call(this as never, request, reply);
    const stored = await claim(db, request, key);
    if (stored !== null) return replay(reply, stored);
    try {
      return await (handler as RouteHandlerMethod).call(this as never, request, reply);
    } catch (error) {
      // Rolled back before the error handler runs: its own writes (an access_denied entry) must not wait
      // for locks this request's transaction still holds.
      await abandon(request);
      throw error;
    }
  } as RouteHandlerMethod;
  route.onSend = [...[route.onSend ?? []].flat(), finish];
  route.onResponse = [...[route.onResponse ?? []].flat(), abandon];
  document(route);
}

/** What makes two requests the same: method, path and query, and the body as parsed. */
function fingerprintOf(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

/** The stored answer to replay, or null once this request holds the key and its unit of work is open. */
async function claim(db: Kysely<DB>, request: FastifyRequest, key: string): Promise<StoredAnswer | null> {
  const userId = request.principal!.userId;
  const fingerprint = fingerprintOf(request);
  const requestWork = await openRequestWork(db);
  try {
    const trx = requestWork.work.trx;
    if (!(await tryLockKey(trx, userId, key))) {
      throw new AppError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed; retry later');
    }
    const stored = await findAnswer(trx, userId, key);
    if (stored !== undefined && stored.expires_at.getTime() > Date.now()) {
      if (stored.fingerprint !== fingerprint) {
        throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for a different request');
      }
      await requestWork.rollback();
      return stored;
    }
    // Expired and not swept yet: the key is free again.
    if (stored !== undefined) await deleteAnswer(trx, userId, key);
  } catch (error) {
    await requestWork.rollback();
    throw error;
  }
  pending.set(request, { requestWork, userId, key, fingerprint });
  request.requestWork = requestWork;
  return null;
}

function replay(reply: FastifyReply, stored: StoredAnswer): FastifyReply {
  reply.code(stored.response_status);
  for (const [name, value] of Object.entries(stored.response_headers)) reply.header(name, value);
  reply.header('idempotent-replayed', 'true');
  return reply.send(stored.response_body);
}

/** A success is stored with the change and committed before it is sent; anything else rolls back and frees the key. */
async function finish(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const answer = pending.get(request);
  if (answer === undefined) return payload;
  pending.delete(request);
  request.requestWork = null;
  const success = reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string';
  if (!success) {
    await answer.requestWork.rollback();
    return payload;
  }
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  try {
    await storeAnswer(answer.requestWork.work.trx, {
      userId: answer.userId,
      key: answer.key,
      fingerprint: answer.fingerprint,
      status: reply.statusCode,
      headers,
      body: payload,
      expiresAt: new Date(Date.now() + IDEMPOTENCY_TTL_MS),
    });
  } catch (error) {
    await answer.requestWork.rollback();
    throw error;
  }
  await answer.requestWork.commit();
  return payload;
}

/** A request that ended without an answer going through onSend (the client went away) rolls back. */
async function abandon(request: FastifyRequest): Promise<void> {
  const answer = pending.get(request);
  if (answer === undefined) return;
  pending.delete(request);
  request.requestWork = null;
  await answer.requestWork.rollback();
}

function document(route: RouteOptions): void {
  addHeaderParameter(route, 'idempotency-key', {
    type: 'string',
    minLength: 1,
    maxLength: MAX_KEY_LENGTH,
    description:
      'A unique value per intended change (a UUID): a retry with the same key and the same request replays the first ' +
      'answer for 24 hours instead of acting twice. Over 255 characters: 400.',
    examples: ['5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21'],
  });
  addSuccessHeaders(route, {
    'idempotent-replayed': {
      type: 'string',
      enum: ['true'],
      description: 'Present on a replay: this is the stored first answer to the same Idempotency-Key',
    },
  });
  addResponses(route, {
    409: { $ref: 'ErrorBody', description: 'IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later' },
    422: { $ref: 'ErrorBody', description: 'IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request' },
  });
}
