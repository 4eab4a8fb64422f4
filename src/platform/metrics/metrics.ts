import type { Kysely } from 'kysely';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { DB } from '../db/schema.js';
import { RequestHistogram } from './request-histogram.js';

/**
 * A gauge whose value lives in stored data, read when Prometheus scrapes (never on the request path). A
 * module declares its own (AppModule.metrics): the audit trail its checkpoint age; a webhooks module would
 * declare its outbox backlog the same way. Label values must come from a closed set (enum columns), never
 * from ids or user input, so that the number of series stays bounded.
 */
export interface MetricSource {
  /** `risk_<area>_<what>_<unit>`, as Prometheus names go. */
  name: string;
  help: string;
  labelNames?: readonly string[];
  read(db: Kysely<DB>): Promise<readonly { labels?: Record<string, string>; value: number }[]>;
}

/** The service's metrics: one registry per app (the suites build several apps in one process). */
export interface Metrics {
  registry: Registry;
  /** Seconds per request, by operation name (the route's operationId) and status class (2xx ... 5xx). */
  requestDuration: RequestHistogram;
  /** Requests received and not yet answered: a plain number on the request path, read by a gauge at scrape time. */
  inFlight: { count: number };
  /** Seconds per SQL statement, by outcome (ok, error). */
  queryDuration: RequestHistogram;
  /** 429s, by limiter: `api` (D8, per user or address) or `sign_in` (password attempts per account). */
  rateLimitRefusals: Counter<'limiter'>;
  signInFailures: Counter;
  /** Registers a gauge read from the database at scrape time. */
  addSource(source: MetricSource, db: Kysely<DB>): void;
}

/** Latency buckets in seconds: the API answers in milliseconds; D9.5's performance alert is at 1 s. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const inFlight = { count: 0 };
  new Gauge({
    name: 'risk_http_requests_in_flight',
    help: 'Requests received and not yet answered',
    registers,
    collect() {
      this.set(inFlight.count);
    },
  });
  return {
    registry,
    requestDuration: new RequestHistogram(
      'risk_http_request_duration_seconds',
      'Time to answer a request, by operation name (unmatched for unknown paths) and status class',
      REQUEST_BUCKETS,
      registry,
    ),
    inFlight,
    queryDuration: new RequestHistogram('risk_db_query_duration_seconds', 'Time of one SQL statement, by outcome (ok or error)', QUERY_BUCKETS, registry),
    rateLimitRefusals: new Counter({
      name: 'risk_rate_limit_refusals_total',
      help: 'Requests refused with 429, by limiter (api: D8 per user or address; sign_in: password attempts per account)',
      labelNames: ['limiter'],
      registers,
    }),
    signInFailures: new Counter({ name: 'risk_sign_in_failures_total', help: 'Refused password sign-ins at the embedded provider', registers }),
    addSource(source, db) {
      new Gauge({
        name: source.name,
        help: source.help,
        labelNames: source.labelNames ?? [],
        registers,
        async collect() {
          const rows = await source.read(db);
          this.reset();
          for (const row of rows) {
            if (row.labels === undefined) this.set(row.value);
            else this.set(row.labels, row.value);
          }
        },
      });
    },
  };
}

/** The text Prometheus scrapes, with its content type. */
export async function exposition(metrics: Metrics): Promise<{ contentType: string; body: string }> {
  return { contentType: metrics.registry.contentType, body: await metrics.registry.metrics() };
}
