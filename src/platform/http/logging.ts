import { hostname } from 'node:os';
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { prettyFactory } from 'pino-pretty';
import { pino, type Bindings, type ChildLoggerOptions, type DestinationStream } from 'pino';
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
 * The lines written during one turn of the event loop, handed to `out` in one write when the turn's I/O
 * callbacks are done (setImmediate), or sooner by `flush`.
 */
export function perTurn(out: DestinationStream): DestinationStream & { flush(): void } {
  let pending = '';
  const flush = () => {
    if (pending === '') return;
    const lines = pending;
    pending = '';
    out.write(lines);
  };
  return {
    write(line: string) {
      if (pending === '') setImmediate(flush);
      pending += line;
    },
    flush,
  };
}

let standardOutput: DestinationStream | undefined;

/**
 * On a terminal, a person reads the lines: pino-pretty turns each JSON line into a readable one (time,
 * level, message, then the members), synchronously, as the lines come. Anywhere else (a pipe, a file, a
 * log shipper) the lines stay JSON.
 */
function terminalOrJson(): DestinationStream {
  const json = pino.destination({ dest: 1, sync: true });
  return process.stdout.isTTY === true ? readable(json) : json;
}

/** JSON lines (one or several in one write, as perTurn hands them) written as pino-pretty formats them. */
export function readable(out: DestinationStream, colorize = true): DestinationStream {
  const format = prettyFactory({ colorize, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  return {
    write(lines: string) {
      let text = '';
      for (const line of lines.split('\n')) if (line !== '') text += format(line);
      out.write(text);
    },
  };
}

/**
 * Standard output, written synchronously once per turn of the event loop (perTurn): under load several
 * responses complete in one turn, and their access lines go out in one system call. pino's default
 * writes every line from the thread pool, waking a thread each time (decisions.md, per-request cost). A
 * line waits at most until the end of its turn, and an exit (a crash included) writes what waits; a log
 * reader slower than the service slows the service down instead of growing its memory. One per process,
 * as standard output is.
 */
export function logDestination(): DestinationStream {
  if (standardOutput !== undefined) return standardOutput;
  const lines = perTurn(terminalOrJson());
  process.on('exit', lines.flush);
  standardOutput = lines;
  return lines;
}

/**
 * pino options: JSON lines with the request id, on standard output; never an Authorization header, an API
 * key, a cookie, a password or a token, even when a handler logs headers or a body wholesale. Request
 * lines carry the path without its query string, where a mistaken `?access_token=` would otherwise land
 * in the log.
 */
export function loggerOptions(level: LogLevel): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    stream: logDestination(),
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

const INFO = pino.levels.values['info']!;
const DEBUG = pino.levels.values['debug']!;

/**
 * One access line per request, when its response is complete: `request completed` with the request id,
 * `req` (method, path without the query string, address, operation), `res` (status) and `responseTime`
 * in ms, instead of Fastify's two lines (incoming, completed). Its members are fixed and hold no
 * credential (no header, query string or body), so it needs neither the redaction walk nor pino's generic
 * path (serializers, key escaping, a JSON.stringify per member), which made it the largest part of what
 * the platform adds to a request (decisions.md, per-request cost): it is formatted here, in pino's form
 * (level, time, pid and hostname first, as pino's defaults write them), and written to the logger's
 * stream. Failed requests, stream and 404 lines stay Fastify's, through pino.
 */
export class AccessLogController extends LogController {
  readonly #stream: DestinationStream | null;
  readonly #process = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;

  /** `stream`: where the service's logger writes (loggerOptions); without one, Fastify's lines are kept. */
  constructor(stream: DestinationStream | null) {
    super();
    this.#stream = stream;
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error || this.#stream === null) return super.requestCompleted(error, request, reply);
    const level = request.routeOptions.config.accessLogLevel === 'debug' ? DEBUG : INFO;
    if (pino.levels.values[request.server.log.level]! > level) return;
    const url = request.url;
    const query = url.indexOf('?');
    const req =
      `{"method":${JSON.stringify(request.method)},"path":${JSON.stringify(query === -1 ? url : url.slice(0, query))}` +
      `${member('ip', request.ip)}${member('operation', operationOf(request))}}`;
    this.#stream.write(
      `{"level":${level},"time":${Date.now()}${this.#process},"reqId":${JSON.stringify(request.id)},"req":${req},` +
        `"res":{"statusCode":${reply.statusCode}},"responseTime":${reply.elapsedTime},"msg":"request completed"}\n`,
    );
  }
}

/** `,"name":"value"`, or nothing for a missing value (as pino leaves out an undefined member). */
const member = (name: string, value: string | null | undefined) => (value == null ? '' : `,"${name}":${JSON.stringify(value)}`);

/** The level methods of a logger: each writes a line at its level (`silent`, none). */
const LEVEL_METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

// The level methods come from LEVEL_METHODS (the class's static block), typed here by declaration merging.
export interface RequestLogger extends Pick<FastifyBaseLogger, (typeof LEVEL_METHODS)[number]> {}

/**
 * Fastify gives every request a child logger bound to its request id, which pino builds at once, running
 * the root's redaction over the binding. Most requests never log but for the access line, which has a
 * logger of its own: so the child is built on the first line a handler or hook writes, with the same
 * bindings and options, and its lines are the same.
 */
export class RequestLogger implements FastifyBaseLogger {
  #parent: FastifyBaseLogger;
  #bindings: Bindings;
  #options: ChildLoggerOptions;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #logger(): FastifyBaseLogger {
    return (this.#child ??= this.#parent.child(this.#bindings, this.#options));
  }

  static {
    for (const level of LEVEL_METHODS) {
      RequestLogger.prototype[level] = function (this: RequestLogger, ...args: unknown[]): void {
        (this.#logger()[level] as (...line: unknown[]) => void)(...args);
      };
    }
  }

  get level(): string {
    return this.#logger().level;
  }
  set level(level: string) {
    this.#logger().level = level;
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: the request's logger, built when first used (RequestLogger). */
export const requestLogger = (logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger =>
  new RequestLogger(logger, bindings, options);
