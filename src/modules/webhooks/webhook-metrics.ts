import { sql } from 'kysely';
import type { MetricSource } from '../../platform/metrics/metrics.js';

/**
 * The delivery backlog, read when Prometheus scrapes: events not yet fanned out, deliveries not yet sent, and
 * how long the oldest of them has waited. A growing age means the dispatcher has stopped or a receiver is
 * down (docs/operations.md).
 */
export const WEBHOOK_METRICS: readonly MetricSource[] = [
  {
    name: 'risk_webhook_outbox_pending',
    help: 'Events in the outbox not yet fanned out to endpoints',
    async read(db) {
      const { rows } = await sql<{ n: string }>`select count(*) as n from event_outbox`.execute(db);
      return [{ value: Number(rows[0]?.n ?? 0) }];
    },
  },
  {
    name: 'risk_webhook_deliveries_pending',
    help: 'Webhook deliveries queued and not yet delivered',
    async read(db) {
      const { rows } = await sql<{ n: string }>`select count(*) as n from webhook_deliveries where status = 'pending'`.execute(db);
      return [{ value: Number(rows[0]?.n ?? 0) }];
    },
  },
  {
    name: 'risk_webhook_outbox_oldest_age_seconds',
    help: 'Seconds the oldest undelivered event or delivery has waited (0 when none waits)',
    async read(db) {
      const { rows } = await sql<{ age: number | null }>`
        select extract(epoch from now() - least(
          (select min(created_at) from event_outbox),
          (select min(created_at) from webhook_deliveries where status = 'pending')))::float8 as age`.execute(db);
      return [{ value: Math.max(0, rows[0]?.age ?? 0) }];
    },
  },
];
