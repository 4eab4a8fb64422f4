import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Histogram } from 'prom-client';
import { operationOf } from '../http/operation.js';
import type { Metrics } from './metrics.js';

type Observe = (seconds: number) => void;

/** The one label value of every request that matched no route: unknown URLs never become series. */
export const UNMATCHED = 'unmatched';
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
const answered = Symbol('metrics.answered');

/**
 * The label a request is counted under: its route's operation name, else the route's pattern (a route
 * without an operationId: the documents), else `unmatched`. Never the URL a client typed.
 */
function operationLabel(request: FastifyRequest): string {
  const operation = operationOf(request);
  if (operation !== null) return operation;
  const pattern = request.routeOptions.url;
  return pattern === undefined ? UNMATCHED : `${request.method} ${pattern}`;
}

/**
 * The request path's share of the metrics: one gauge move at the start, one at the end, and one histogram
 * observation through a child cached per operation and status class (prom-client would otherwise hash the
 * label set at every observation). Callback hooks, as app.ts's: an async hook costs a promise per request.
 */
export function registerHttpMetrics(app: FastifyInstance, metrics: Pick<Metrics, 'requestDuration' | 'requestsInFlight'>): void {
  const children = new Map<string, Observe[]>();
  const observerFor = (operation: string, status: number): Observe => {
    let byClass = children.get(operation);
    if (byClass === undefined) {
      byClass = STATUS_CLASSES.map((statusClass) => childObserver(metrics.requestDuration, operation, statusClass));
      children.set(operation, byClass);
    }
    return byClass[Math.min(Math.max(Math.floor(status / 100), 1), 5) - 1]!;
  };
  const done = (request: FastifyRequest): boolean => {
    const marked = request as unknown as Record<symbol, boolean>;
    if (marked[answered] === true) return true;
    marked[answered] = true;
    return false;
  };

  app.addHook('onRequest', (_request, _reply, next) => {
    metrics.requestsInFlight.inc();
    next();
  });
  app.addHook('onResponse', (request, reply, next) => {
    if (!done(request)) {
      metrics.requestsInFlight.dec();
      observerFor(operationLabel(request), reply.statusCode)(reply.elapsedTime / 1000);
    }
    next();
  });
  // A client that hangs up is no longer in flight, whether or not an answer follows.
  app.addHook('onRequestAbort', (request, next) => {
    if (!done(request)) metrics.requestsInFlight.dec();
    next();
  });
}

function childObserver(histogram: Histogram<'operation' | 'status_class'>, operation: string, statusClass: string): Observe {
  const child = histogram.labels({ operation, status_class: statusClass });
  return (seconds) => child.observe(seconds);
}
