import { randomUUID } from 'node:crypto';
import { recordChange } from '../../platform/audit/record-change.js';
import type { Caller } from '../../platform/auth/principal.js';
import { diffFields, fromTo, isEmptyDiff } from '../../platform/changes/field-diff.js';
import { lockForChange, updateVersioned, type RecordLookup } from '../../platform/changes/versioned-change.js';
import type { Executor } from '../../platform/db/schema.js';
import type { Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../platform/db/transaction.js';
import type { ChangeTerms } from '../../platform/versions/change-terms.js';
import { representationState, versioned, type ResourceState, type Versioned } from '../../platform/versions/resource-state.js';
import { eventBody } from '../../platform/events/event-types.js';
import { nextEventSeq } from '../../platform/events/outbox.js';
import { invalidState, notFound, validationError } from '../../platform/errors/app-error.js';
import { loadPage, pageRequest } from '../../platform/http/pagination.js';
import { refusedUrl } from '../../platform/net/address-safety.js';
import { countDeliveries, insertDelivery, listDeliveries, lockDelivery, requeueDelivery } from './deliveries.repository.js';
import { RETRY_WINDOW_MS } from './retry-schedule.js';
import { newSecret } from './webhook-signature.js';
import {
  countEndpoints,
  deleteEndpoint,
  findEndpoint,
  insertEndpoint,
  listEndpoints,
  lockEndpoint,
  rotateEndpointSecret,
  updateEndpoint,
  type EndpointChanges,
} from './webhooks.repository.js';
import { requireWebhookAdmin } from './webhooks.policy.js';
import type { CreateWebhookBody, ListQuery, UpdateWebhookBody, WebhookView } from './webhooks.schemas.js';

/** How long the secret before a rotation keeps signing beside the new one. */
export const ROTATION_GRACE_MS = RETRY_WINDOW_MS;

export interface WebhooksServiceDeps {
  db: Executor;
  /** WEBHOOKS_ALLOW_LOOPBACK. */
  allowLoopback: boolean;
  now?: () => Date;
}

/** A delivery as listed: `next_attempt_at` only while it waits for an attempt. */
const presentDelivery = <D extends { status: string; next_attempt_at: Date | null }>(row: D): D => ({
  ...row,
  next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
});

/** An endpoint as a client reads it. */
const presentEndpoint = (row: WebhookView): WebhookView => ({
  id: row.id,
  url: row.url,
  event_types: row.event_types,
  description: row.description,
  enabled: row.enabled,
  disabled_reason: row.disabled_reason,
  failing_since: row.failing_since,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/**
 * An endpoint's state: its version moves with what a client changes, but `failing_since` with the
 * dispatcher's rounds, so the state carries a digest of what a read shows (resource-state.ts).
 */
const endpointState = (row: WebhookView & { row_version: number }): ResourceState => representationState(row.row_version, presentEndpoint(row));

/** The endpoint a change names, under its lock: 404 for another enterprise's or an unknown one. */
const oneEndpoint = (trx: Transaction<DB>, enterpriseId: string, id: string): RecordLookup<WebhookView & { row_version: number }> & { stateOf: typeof endpointState } => ({
  noun: 'Webhook',
  lock: () => lockEndpoint(trx, enterpriseId, id),
  stateOf: endpointState,
});

/**
 * Webhook endpoints of an enterprise and their deliveries (client admins). Every change is audited on the
 * `webhook` entity in its transaction; secrets are shown in the create and rotate answers only and never
 * reach the audit trail or the logs.
 */
export function createWebhooksService({ db, allowLoopback, now = () => new Date() }: WebhooksServiceDeps) {
  const checkUrl = (url: string) => {
    const refused = refusedUrl(url, allowLoopback);
    if (refused !== null) throw validationError([{ field: 'url', message: refused }]);
  };

  async function readEndpoint(caller: Caller, id: string) {
    requireWebhookAdmin(caller);
    const endpoint = await findEndpoint(db, caller.enterpriseId, id);
    if (endpoint === undefined) throw notFound('Webhook');
    return endpoint;
  }

  return {
    async create(caller: Caller, body: CreateWebhookBody, terms: ChangeTerms) {
      requireWebhookAdmin(caller);
      checkUrl(body.url);
      const enterpriseId = caller.enterpriseId;
      const secret = newSecret();
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const endpoint = await insertEndpoint(trx, enterpriseId, {
          url: body.url,
          event_types: body.event_types,
          description: body.description || null,
          secret,
          created_by: caller.userId,
        });
        await recordChange(trx, caller, {
          action: 'create',
          entityType: 'webhook',
          entityId: endpoint.id,
          details: { url: endpoint.url, event_types: endpoint.event_types, description: endpoint.description },
        });
        return { ...endpoint, secret };
      });
    },

    async list(caller: Caller, query: ListQuery) {
      requireWebhookAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return loadPage(
        pageRequest(query),
        () => countEndpoints(db, enterpriseId),
        (limit, offset) => listEndpoints(db, enterpriseId, limit, offset),
      );
    },

    async get(caller: Caller, id: string): Promise<Versioned<WebhookView>> {
      const endpoint = await readEndpoint(caller, id);
      return versioned(presentEndpoint(endpoint), endpointState(endpoint));
    },

    /** Enabling clears the failure state, so its queued deliveries resume with a clean slate. */
    async update(caller: Caller, id: string, body: UpdateWebhookBody, terms: ChangeTerms): Promise<Versioned<WebhookView>> {
      requireWebhookAdmin(caller);
      if (body.url !== undefined) checkUrl(body.url);
      const enterpriseId = caller.enterpriseId;
      const wanted: Partial<Pick<WebhookView, 'url' | 'event_types' | 'description' | 'enabled'>> = {
        url: body.url,
        event_types: body.event_types,
        description: body.description === undefined ? undefined : body.description || null,
        enabled: body.enabled,
      };
      return inTransaction(db, async ({ trx }) => {
        const { row } = await updateVersioned(trx, caller, terms, {
          ...oneEndpoint(trx, enterpriseId, id),
          diff: (before) => {
            const diff = diffFields<Pick<WebhookView, 'url' | 'event_types' | 'description' | 'enabled'>>(before, wanted);
            return isEmptyDiff(diff) ? null : diff;
          },
          write: (_before, diff) => {
            const changes: EndpointChanges = { ...diff.set };
            if (changes.enabled === true) Object.assign(changes, { failing_since: null, disabled_reason: null });
            if (changes.enabled === false) changes.disabled_reason = null;
            return updateEndpoint(trx, enterpriseId, id, changes);
          },
          audit: (_before, _after, diff) => ({ entityType: 'webhook', entityId: id, details: { changes: fromTo(diff) } }),
        });
        return versioned(presentEndpoint(row), endpointState(row));
      });
    },

    /** Removes the endpoint and its deliveries; the answer carries no state (there is none left to name). */
    async remove(caller: Caller, id: string, terms: ChangeTerms): Promise<void> {
      requireWebhookAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      await inTransaction(db, async ({ trx }) => {
        const endpoint = await lockForChange(oneEndpoint(trx, enterpriseId, id), terms);
        await deleteEndpoint(trx, enterpriseId, id);
        await recordChange(trx, caller, {
          action: 'delete',
          entityType: 'webhook',
          entityId: id,
          details: { url: endpoint.url, event_types: endpoint.event_types },
        });
      });
    },

    /** The audit entry says that the secret changed and until when the old one signs; never the secrets. */
    async rotateSecret(caller: Caller, id: string, terms: ChangeTerms) {
      requireWebhookAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      const secret = newSecret();
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        await lockForChange(oneEndpoint(trx, enterpriseId, id), terms);
        const graceUntil = new Date(now().getTime() + ROTATION_GRACE_MS);
        const rotated = await rotateEndpointSecret(trx, enterpriseId, id, secret, graceUntil);
        await recordChange(trx, caller, {
          action: 'update',
          entityType: 'webhook',
          entityId: id,
          details: { secret_rotated: true, previous_secret_expires_at: graceUntil.toISOString() },
        });
        return versioned({ id: rotated.id, secret, previous_secret_expires_at: graceUntil }, endpointState(rotated));
      });
    },

    /** A `webhook.test` event for this endpoint alone, queued behind what it already has to deliver. */
    async sendTest(caller: Caller, id: string, terms: ChangeTerms) {
      requireWebhookAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const endpoint = await lockEndpoint(trx, enterpriseId, id);
        if (endpoint === undefined) throw notFound('Webhook');
        if (!endpoint.enabled) throw invalidState('The webhook is disabled; enable it to send a test event');
        const at = now();
        const body = eventBody({ enterpriseId, type: 'webhook.test', data: { webhook_id: id, requested_by: caller.userId } }, at);
        const delivery = await insertDelivery(trx, enterpriseId, {
          endpoint_id: id,
          event_id: randomUUID(),
          event_type: 'webhook.test',
          body,
          seq: await nextEventSeq(trx),
          next_attempt_at: at,
        });
        return presentDelivery(delivery);
      });
    },

    async listDeliveries(caller: Caller, id: string, query: ListQuery) {
      const endpoint = await readEndpoint(caller, id);
      const enterpriseId = caller.enterpriseId!;
      const page = await loadPage(
        pageRequest(query),
        () => countDeliveries(db, enterpriseId, endpoint.id),
        (limit, offset) => listDeliveries(db, enterpriseId, endpoint.id, limit, offset),
      );
      return { ...page, data: page.data.map(presentDelivery) };
    },

    async retryDelivery(caller: Caller, id: string, deliveryId: string) {
      requireWebhookAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const endpoint = await lockEndpoint(trx, enterpriseId, id);
        if (endpoint === undefined) throw notFound('Webhook');
        const delivery = await lockDelivery(trx, enterpriseId, id, deliveryId);
        if (delivery === undefined) throw notFound('Delivery');
        if (!endpoint.enabled) throw invalidState('The webhook is disabled; enable it to retry its deliveries');
        const requeued = await requeueDelivery(trx, enterpriseId, deliveryId, now());
        await recordChange(trx, caller, {
          action: 'update',
          entityType: 'webhook',
          entityId: id,
          details: { delivery_retried: deliveryId, event_id: delivery.event_id, event_type: delivery.event_type, previous_status: delivery.status },
        });
        return presentDelivery(requeued);
      });
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
