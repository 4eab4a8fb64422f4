import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { LogLevel } from '../../config.js';
import { operationOf } from './operation.js';

/** Header and body members that are credentials: never written to a log, at any of the usual depths. */
const SECRET_HEADERS = ['authorization', 'apikey', 'cookie', '["set-cookie"]', '["x-api-key"]'];
const SECRET_FIELDS = ['password', 'new_password', 'current_password', 'token', 'access_token', 'refresh_token', 'id_token'];

function redactPaths(): string[] {
  const paths: string[] = [];
  for (const header of SECRET_HEADERS) {
    const member = header.startsWith('[') ? header : `.${header}`;
    paths.push(`req.headers${member}`, `headers${member}`, `*.headers${member}`);
  }
  for (const name of [...SECRET_FIELDS, 'authorization', 'apikey', 'cookie']) {
    paths.push(name, `*.${name}`, `*.*.${name}`);
  }
  return paths;
}

/**
 * pino options: JSON lines with the request id; never an Authorization header, an API key, a cookie,
 * a password or a token, even when a handler logs headers or a body wholesale. Request lines carry the
 * path without its query string, where a mistaken `?access_token=` would otherwise land in the log.
 */
export function loggerOptions(level: LogLevel): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    redact: { paths: redactPaths(), censor: '[redacted]' },
    serializers: {
      req: (request: { method: string; url: string; ip?: string; routeOptions?: { schema?: unknown } }) => ({
        method: request.method,
        path: request.url.split('?')[0],
        ip: request.ip,
        operation: operationOf(request) ?? undefined,
      }),
    },
  };
}

/**
 * One access line per request, when its response is complete: `request completed` with the request id,
 * `req` (method, path without the query string, address, operation), `res` (status) and `responseTime`
 * in ms, instead of Fastify's two lines (incoming, completed). Its fields are fixed and hold no
 * credential (no header, query string or body), so it is written by a child logger without the
 * redaction walk that the free-form lines of handlers need: the same content, at a fraction of the cost
 * (bench/gate-ratio.mjs). Failed requests, stream and 404 lines stay Fastify's.
 */
export class AccessLogController extends LogController {
  #access: FastifyBaseLogger | undefined;

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    this.#access ??= request.server.log.child({}, { redact: { paths: [] } } as never);
    this.#access.info({ reqId: request.id, req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
