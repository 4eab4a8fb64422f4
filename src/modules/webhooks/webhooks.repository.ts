import type { Transaction } from 'kysely';
import { findOwnRow, lockOwnRow, updateOwnRow } from '../../platform/db/own-rows.js';
import { countRows, newestFirst } from '../../platform/db/page-queries.js';
import type { DB, Executor } from '../../platform/db/schema.js';

/** SQL of the endpoints (webhook_endpoints), each query naming its enterprise. */

/** What the API shows of an endpoint: never its secrets, nor the dispatcher's lease. */
const ENDPOINT_VIEW = [
  'id',
  'url',
  'event_types',
  'description',
  'enabled',
  'disabled_reason',
  'failing_since',
  'created_at',
  'updated_at',
] as const;

export async function insertEndpoint(
  trx: Transaction<DB>,
  enterpriseId: string,
  values: { url: string; event_types: string[]; description: string | null; secret: string; created_by: string },
) {
  return trx
    .insertInto('webhook_endpoints')
    .values({ enterprise_id: enterpriseId, ...values })
    .returning(ENDPOINT_VIEW)
    .executeTakeFirstOrThrow();
}

export async function countEndpoints(db: Executor, enterpriseId: string): Promise<number> {
  return countRows(db.selectFrom('webhook_endpoints').where('enterprise_id', '=', enterpriseId));
}

export async function listEndpoints(db: Executor, enterpriseId: string, limit: number, offset: number) {
  return newestFirst(db.selectFrom('webhook_endpoints').select(ENDPOINT_VIEW).where('enterprise_id', '=', enterpriseId), limit, offset).execute();
}

const VERSIONED_VIEW = [...ENDPOINT_VIEW, 'row_version'] as const;

export async function findEndpoint(db: Executor, enterpriseId: string, id: string) {
  return findOwnRow(db, 'webhook_endpoints', enterpriseId, id, VERSIONED_VIEW);
}

/** The endpoint under its row lock, for a change. */
export async function lockEndpoint(trx: Transaction<DB>, enterpriseId: string, id: string) {
  return lockOwnRow(trx, 'webhook_endpoints', enterpriseId, id, VERSIONED_VIEW);
}

export type EndpointChanges = Partial<{
  url: string;
  event_types: string[];
  description: string | null;
  enabled: boolean;
  failing_since: null;
  disabled_reason: string | null;
}>;

export async function updateEndpoint(trx: Transaction<DB>, enterpriseId: string, id: string, changes: EndpointChanges) {
  return updateOwnRow(trx, 'webhook_endpoints', enterpriseId, id, { ...changes, updated_at: new Date() }, VERSIONED_VIEW);
}

/** A new secret; the current one keeps signing beside it until `graceUntil`. */
export async function rotateEndpointSecret(trx: Transaction<DB>, enterpriseId: string, id: string, secret: string, graceUntil: Date) {
  return trx
    .updateTable('webhook_endpoints')
    .set((eb) => ({ previous_secret: eb.ref('secret'), previous_secret_expires_at: graceUntil, secret, updated_at: new Date() }))
    .where('enterprise_id', '=', enterpriseId)
    .where('id', '=', id)
    .returning([...ENDPOINT_VIEW, 'previous_secret_expires_at', 'row_version'])
    .executeTakeFirstOrThrow();
}

/** Its deliveries go with it (ON DELETE CASCADE). */
export async function deleteEndpoint(trx: Transaction<DB>, enterpriseId: string, id: string): Promise<void> {
  await trx.deleteFrom('webhook_endpoints').where('enterprise_id', '=', enterpriseId).where('id', '=', id).execute();
}
