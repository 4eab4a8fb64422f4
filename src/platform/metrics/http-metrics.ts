import type { FastifyInstance, FastifyRequest } from 'fastify';
import { operationOf } from '../http/operation.js';
import type { Metrics } from './metrics.js';

type Observe = (seconds: number) => void;

/** The one label value of every request that matched no route: unknown URLs never become series. */
export const UNMATCHED = 'unmatched';
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

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
 * The request path's share of the metrics: a number up at the start, down at the end, and one histogram
 * observation through a recorder cached per operation and status class (made on first use). Callback
 * hooks, as app.ts's: an async hook costs a promise per request.
 */
export function registerHttpMetrics(app: FastifyInstance, metrics: Pick<Metrics, 'requestDuration' | 'inFlight'>): void {
  const { inFlight } = metrics;
  // Per operation, a recorder per status class, made when the pair is first seen (no empty series).
  const children = new Map<string, (Observe | undefined)[]>();
  const observerFor = (operation: string, status: number): Observe => {
    let byClass = children.get(operation);
    if (byClass === undefined) {
      byClass = STATUS_CLASSES.map(() => undefined);
      children.set(operation, byClass);
    }
    const at = Math.min(Math.max(Math.floor(status / 100), 1), 5) - 1;
    return (byClass[at] ??= metrics.requestDuration.series({ operation, status_class: STATUS_CLASSES[at]! }));
  };
  // The response's 'close' comes once per request, answered or abandoned by its client (onResponse never
  // runs for a request whose client hung up first): the in-flight count cannot drift.
  const leave = () => {
    inFlight.count -= 1;
  };

  app.addHook('onRequest', (_request, reply, next) => {
    inFlight.count += 1;
    reply.raw.on('close', leave);
    next();
  });
  app.addHook('onResponse', (request, reply, next) => {
    observerFor(operationLabel(request), reply.statusCode)(reply.elapsedTime / 1000);
    next();
  });
}
