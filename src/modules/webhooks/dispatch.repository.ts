import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, Executor } from '../../platform/db/schema.js';
import type { OutboxEvent } from '../../platform/events/outbox.js';

/**
 * The dispatcher's SQL. It works across enterprises (platform work, not a tenant's request); every row it
 * writes is addressed by its own id, which carries its enterprise.
 */

/**
 * One delivery per event and enabled endpoint of the event's enterprise subscribed to its type, in one
 * statement; the event's outbox order becomes the delivery's. An event already fanned out to an endpoint
 * (a replayed batch) is not queued twice (webhook_deliveries_event_key).
 */
export async function queueDeliveries(trx: Transaction<DB>, events: readonly OutboxEvent[], now: Date): Promise<number> {
  if (events.length === 0) return 0;
  const column = <K extends keyof OutboxEvent>(key: K) => events.map((event) => event[key]);
  const result = await sql`
    insert into webhook_deliveries (enterprise_id, endpoint_id, event_id, event_type, body, seq, next_attempt_at)
    select e.enterprise_id, w.id, e.id, e.type, e.body, e.seq, ${now}
    from unnest(${column('seq')}::bigint[], ${column('id')}::uuid[], ${column('enterprise_id')}::uuid[],
                ${column('type')}::text[], ${column('body')}::text[]) as e (seq, id, enterprise_id, type, body)
    join webhook_endpoints w on w.enterprise_id = e.enterprise_id and w.enabled and e.type = any (w.event_types)
    on conflict (enterprise_id, endpoint_id, event_id) do nothing`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

export interface ClaimedEndpoint {
  id: string;
  enterprise_id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
}

/**
 * Leases up to `limit` enabled endpoints whose oldest pending delivery is due, the least recently leased
 * first. FOR UPDATE SKIP LOCKED: instances running this at once claim different endpoints without waiting;
 * the lease (not a held lock) keeps others off an endpoint while its deliveries go out, one at a time and
 * in order, and lapses by itself if the instance dies.
 */
export async function leaseDueEndpoints(db: Kysely<DB>, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedEndpoint[]> {
  const { rows } = await sql<ClaimedEndpoint>`
    update webhook_endpoints set lease_until = ${leaseUntil}
    where id in (
      select w.id from webhook_endpoints w
      where w.enabled
        and (w.lease_until is null or w.lease_until <= ${now})
        and (select d.next_attempt_at from webhook_deliveries d
             where d.endpoint_id = w.id and d.status = 'pending' order by d.seq limit 1) <= ${now}
      order by w.lease_until asc nulls first
      limit ${limit}
      for update skip locked)
    returning id, enterprise_id, url, secret, previous_secret, previous_secret_expires_at, failing_since`.execute(db);
  return rows;
}

export async function releaseLease(db: Executor, endpointId: string): Promise<void> {
  await db.updateTable('webhook_endpoints').set({ lease_until: null }).where('id', '=', endpointId).execute();
}

/**
 * The endpoint's oldest pending deliveries, in order: nothing behind the first goes before it has succeeded
 * or given up. Read once per lease (the lease keeps other instances off them).
 */
export async function pendingDeliveries(db: Executor, endpointId: string, limit: number) {
  return db
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_id', 'body', 'attempt_count', 'first_attempt_at', 'next_attempt_at'])
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .orderBy('seq')
    .limit(limit)
    .execute();
}

export async function markDelivered(db: Executor, deliveryId: string, statusCode: number, at: Date): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status: 'delivered',
      attempt_count: eb('attempt_count', '+', 1),
      last_status_code: statusCode,
      last_error: null,
      last_attempt_at: at,
      first_attempt_at: eb.fn.coalesce('first_attempt_at', eb.val(at)),
      delivered_at: at,
    }))
    .where('id', '=', deliveryId)
    .execute();
}

/** A success after failures: the endpoint is healthy again. */
export async function markRecovered(db: Executor, endpointId: string): Promise<void> {
  await db.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', endpointId).execute();
}

/** A failed attempt: tried again at `retryAt`, or given up (`retryAt` null). */
export async function markAttemptFailed(
  db: Executor,
  endpointId: string,
  deliveryId: string,
  attempt: { statusCode: number | null; error: string; at: Date; retryAt: Date | null },
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status: attempt.retryAt === null ? 'failed' : 'pending',
      attempt_count: eb('attempt_count', '+', 1),
      last_status_code: attempt.statusCode,
      last_error: attempt.error.slice(0, 500),
      last_attempt_at: attempt.at,
      first_attempt_at: eb.fn.coalesce('first_attempt_at', eb.val(attempt.at)),
      ...(attempt.retryAt === null ? {} : { next_attempt_at: attempt.retryAt }),
    }))
    .where('id', '=', deliveryId)
    .execute();
  await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: attempt.at })
    .where('id', '=', endpointId)
    .where('failing_since', 'is', null)
    .execute();
}

/** The service disables an endpoint that has failed for 24 hours; its admin enables it again. */
export async function disableFailingEndpoint(trx: Transaction<DB>, endpointId: string, reason: string) {
  return trx
    .updateTable('webhook_endpoints')
    .set({ enabled: false, disabled_reason: reason, lease_until: null, updated_at: new Date() })
    .where('id', '=', endpointId)
    .where('enabled', '=', true)
    .returning(['id', 'enterprise_id', 'url', 'failing_since'])
    .executeTakeFirst();
}
