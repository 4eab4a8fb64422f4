import { operationOf } from './operation.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable, mapConstraintError } from '../db/constraint-errors.js';
import { AppError, type FieldError } from '../errors/app-error.js';
import type { AllowedMethods } from './allowed-methods.js';

export interface ErrorObserver {
  /** A 500: reported so that a `system` alert is raised. */
  unexpectedError(error: unknown, request: FastifyRequest): void;
  /** A database failure; `unreachable` when it answered 503. */
  databaseError(error: unknown, unreachable: boolean): void;
  /** A 403 to an authenticated caller: recorded as an `access_denied` audit entry before answering. */
  forbidden(request: FastifyRequest, error: AppError): Promise<void>;
}

interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

function fieldName(issue: AjvIssue): string {
  const path = issue.instancePath
    .split('/')
    .filter((part) => part !== '')
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('')
    .replace(/^\./, '');
  const leaf =
    issue.keyword === 'required'
      ? String(issue.params['missingProperty'])
      : issue.keyword === 'additionalProperties'
        ? String(issue.params['additionalProperty'])
        : '';
  return [path, leaf].filter((part) => part !== '').join('.') || '(body)';
}

function fieldMessage(issue: AjvIssue): string {
  if (issue.keyword === 'additionalProperties') return 'is not allowed';
  if (issue.keyword === 'required') return 'is required';
  if (issue.keyword === 'minLength' && issue.params['limit'] === 1) return 'must not be empty';
  return issue.message ?? 'is invalid';
}

/** Ajv reports one issue per branch of a union; keep one line per field. */
function fieldErrors(issues: AjvIssue[]): FieldError[] {
  const seen = new Map<string, FieldError>();
  for (const issue of issues) {
    if (issue.keyword === 'anyOf' || issue.keyword === 'oneOf') continue;
    const field = fieldName(issue);
    if (!seen.has(field)) seen.set(field, { field, message: fieldMessage(issue) });
  }
  return [...seen.values()];
}

/** Translates whatever was thrown into the contract's error (D2.2). */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const constraint = mapConstraintError(error);
  if (constraint !== null) return constraint;
  if (isDatabaseUnavailable(error)) return new AppError('SERVICE_UNAVAILABLE', 'The database is unavailable');
  // `throw null`, `throw 'text'`: nothing to inspect, and nothing of it may reach the body.
  if (typeof error !== 'object' || error === null) return new AppError('INTERNAL_ERROR', 'An unexpected error occurred');
  const fastifyError = error as FastifyError & { validation?: AjvIssue[]; validationContext?: string };
  if (fastifyError.validation !== undefined) {
    const issues = fastifyError.validation;
    if (fastifyError.validationContext !== 'body') {
      return new AppError('BAD_REQUEST', `Invalid ${fastifyError.validationContext ?? 'request'} parameter`, {
        fields: fieldErrors(issues),
      });
    }
    if (issues.some((issue) => issue.instancePath === '' && issue.keyword === 'type')) {
      return new AppError('BAD_REQUEST', 'Body must be a JSON object');
    }
    return new AppError('VALIDATION_ERROR', 'Request body failed validation', { fields: fieldErrors(issues) });
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Bodies must be sent with Content-Type: application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'Body exceeds the 1 MiB limit');
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413) return new AppError('PAYLOAD_TOO_LARGE', 'Body exceeds the 1 MiB limit');
    if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type');
    return new AppError('BAD_REQUEST', 'Malformed request');
  }
  return new AppError('INTERNAL_ERROR', 'An unexpected error occurred');
}

export function sendError(reply: FastifyReply, appError: AppError): FastifyReply {
  const body: Record<string, unknown> = {
    error: appError.message,
    code: appError.code,
    request_id: reply.request.id,
    ...appError.extra,
  };
  if (appError.details !== undefined) body['details'] = appError.details;
  return reply.status(appError.status).type('application/json; charset=utf-8').send(body);
}

/**
 * Errors Fastify raises before routing, where no hook or error handler runs: a path segment that is not
 * valid percent-encoding, a path parameter over the router's length limit. Rendered as the contract's
 * 400 with the request id (D2.1, D2.2) instead of Fastify's own body. The `frameworkErrors` server option.
 */
export function frameworkErrorHandler(_error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  void sendError(reply, new AppError('BAD_REQUEST', 'Malformed request path'));
}

/** The cause of a 503 in one line: the driver's code and the first line of its message, no stack. */
function causeLine(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error);
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = (typeof message === 'string' ? message : '').split('\n')[0]!.slice(0, 200);
  return typeof code === 'string' ? `${code}: ${text}` : text;
}

/** True at most once per interval: when a 503's log line may carry its cause's stack trace. */
function onceEvery(intervalMs: number) {
  let last = Number.NEGATIVE_INFINITY;
  return {
    due(now: number): boolean {
      if (now - last < intervalMs) return false;
      last = now;
      return true;
    },
  };
}

const OUTAGE_TRACE_INTERVAL_MS = 60_000;

export function registerErrorHandler(app: FastifyInstance, observer: ErrorObserver): void {
  const outageTraces = onceEvery(OUTAGE_TRACE_INTERVAL_MS);
  app.setErrorHandler(async (error, request, reply) => {
    const appError = toAppError(error);
    if (appError.code === 'FORBIDDEN' && request.principal !== null) {
      try {
        await observer.forbidden(request, appError);
      } catch (auditError) {
        request.log.error({ err: auditError }, 'could not record access_denied');
      }
    }
    if (appError.code === 'SERVICE_UNAVAILABLE') {
      // An outage fails every request alike: one short line each, the cause's stack once a minute.
      const withStack = outageTraces.due(Date.now());
      request.log.error({ operation: operationOf(request), cause: causeLine(error), ...(withStack ? { err: error } : {}) }, appError.message);
      observer.databaseError(error, true);
    } else if (appError.status >= 500) {
      // The log keeps the cause for operators; the body never does.
      request.log.error({ err: error, operation: operationOf(request) }, appError.message);
      const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
      if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) observer.databaseError(error, false);
      observer.unexpectedError(error, request);
    }
    return sendError(reply, appError);
  });

}

/**
 * The not-found handlers' answer (the app's and the /api/v1 gate's): 405 with `Allow` when the path is known
 * under other methods, else the contract's 404.
 */
export function routeNotFound(allowed: AllowedMethods) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<never> => {
    const path = request.url.split('?')[0] ?? '';
    const methods = allowed.of(path);
    // A route of this method that found nothing (a missing asset under /assets/*) is a 404 like any other.
    if (methods.length > 0 && !methods.includes(request.method)) {
      reply.header('allow', methods.join(', '));
      throw new AppError('METHOD_NOT_ALLOWED', `${request.method} is not a method of ${path}; it answers ${methods.join(', ')}`);
    }
    throw new AppError('NOT_FOUND', `Route ${request.method} ${path} not found`);
  };
}
