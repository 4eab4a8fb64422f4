import { sql, type Transaction } from 'kysely';
import type { DB, Executor } from '../db/schema.js';
import { eventBody, type DomainEvent } from './event-types.js';

/**
 * The transactional outbox. `emitEvent` only takes a transaction: the event row commits with the change it
 * announces or not at all, so a rolled-back change sends nothing and a committed one is never lost (the
 * dispatcher finds it after a restart). It is the whole cost of an event on the request path: one INSERT.
 */
export async function emitEvent(trx: Transaction<DB>, event: DomainEvent): Promise<void> {
  await emitEvents(trx, [event]);
}

/** Several events of one change in one INSERT, in the order given (which is their delivery order). */
export async function emitEvents(trx: Transaction<DB>, events: readonly DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  const at = new Date();
  await trx
    .insertInto('event_outbox')
    .values(events.map((event) => ({ enterprise_id: event.enterpriseId, type: event.type, body: eventBody(event, at) })))
    .execute();
}

/**
 * Emits the event unless one with the same key was emitted for the enterprise before (the key commits with
 * the event): what must be announced once only, such as an action overdue for a given due date.
 */
export async function emitEventOnce(trx: Transaction<DB>, key: string, event: DomainEvent): Promise<boolean> {
  const fresh = await trx
    .insertInto('event_keys')
    .values({ enterprise_id: event.enterpriseId, key })
    .onConflict((oc) => oc.columns(['enterprise_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (fresh === undefined) return false;
  await emitEvent(trx, event);
  return true;
}

export interface OutboxEvent {
  seq: string;
  id: string;
  enterprise_id: string;
  type: string;
  body: string;
}

/**
 * The oldest events not yet dispatched, locked until the caller's commit; rows another instance holds are
 * skipped (FOR UPDATE SKIP LOCKED), so instances share the work without waiting on each other.
 */
export async function claimOutboxEvents(trx: Transaction<DB>, limit: number): Promise<OutboxEvent[]> {
  return trx
    .selectFrom('event_outbox')
    .select(['seq', 'id', 'enterprise_id', 'type', 'body'])
    .orderBy('seq')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/** Removes dispatched events: once fanned out, an event lives on in its deliveries. */
export async function removeOutboxEvents(trx: Transaction<DB>, seqs: readonly string[]): Promise<void> {
  if (seqs.length === 0) return;
  await trx.deleteFrom('event_outbox').where('seq', 'in', seqs as string[]).execute();
}

/**
 * A place in the outbox order for an event that does not go through the outbox (a test event sent to one
 * endpoint), so that it still takes its turn among that endpoint's deliveries.
 */
export async function nextEventSeq(db: Executor): Promise<string> {
  const { rows } = await sql<{ seq: string }>`select nextval(pg_get_serial_sequence('event_outbox', 'seq'))::text as seq`.execute(db);
  return rows[0]!.seq;
}
