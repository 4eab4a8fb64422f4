import type { Transaction } from 'kysely';
import { updateOwnRow } from '../../platform/db/own-rows.js';
import { countRows } from '../../platform/db/page-queries.js';
import type { DB, Executor } from '../../platform/db/schema.js';

/** SQL of an endpoint's deliveries as its admin sees them (webhook_deliveries). */

const DELIVERY_VIEW = [
  'id',
  'event_id',
  'event_type',
  'status',
  'attempt_count',
  'last_status_code',
  'last_error',
  'last_attempt_at',
  'next_attempt_at',
  'delivered_at',
  'created_at',
] as const;

/** The deliveries of one endpoint of the enterprise: what the list, its count and a delivery's lock read. */
function deliveriesOf(db: Executor, enterpriseId: string, endpointId: string) {
  return db.selectFrom('webhook_deliveries').where('enterprise_id', '=', enterpriseId).where('endpoint_id', '=', endpointId);
}

export async function countDeliveries(db: Executor, enterpriseId: string, endpointId: string): Promise<number> {
  return countRows(deliveriesOf(db, enterpriseId, endpointId));
}

/** Newest first: the event order (seq) is the order they were queued in (webhook_deliveries_list_idx). */
export async function listDeliveries(db: Executor, enterpriseId: string, endpointId: string, limit: number, offset: number) {
  return deliveriesOf(db, enterpriseId, endpointId).select(DELIVERY_VIEW).orderBy('seq', 'desc').limit(limit).offset(offset).execute();
}

export async function lockDelivery(trx: Transaction<DB>, enterpriseId: string, endpointId: string, id: string) {
  return deliveriesOf(trx, enterpriseId, endpointId).select(DELIVERY_VIEW).where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Queued again now, with a fresh 24 hours; its attempts keep counting. */
export async function requeueDelivery(trx: Transaction<DB>, enterpriseId: string, id: string, now: Date) {
  return updateOwnRow(trx, 'webhook_deliveries', enterpriseId, id, { status: 'pending', next_attempt_at: now, first_attempt_at: null, delivered_at: null }, DELIVERY_VIEW);
}

/** A delivery of an event that goes to one endpoint alone (a test event). */
export async function insertDelivery(
  trx: Transaction<DB>,
  enterpriseId: string,
  values: { endpoint_id: string; event_id: string; event_type: string; body: string; seq: string; next_attempt_at: Date },
) {
  return trx
    .insertInto('webhook_deliveries')
    .values({ enterprise_id: enterpriseId, ...values })
    .returning(DELIVERY_VIEW)
    .executeTakeFirstOrThrow();
}
