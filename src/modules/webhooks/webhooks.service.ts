import { randomUUID } from 'node:crypto';
import { auditFrom } from '../../platform/audit/audit-events.js';
import { writeAudit } from '../../platform/audit/audit-writer.js';
import type { Caller } from '../../platform/auth/principal.js';
import type { Executor } from '../../platform/db/schema.js';
import { inTransaction, joinRequestWork } from '../../platform/db/transaction.js';
import { requireCurrentVersion, servedVersion } from '../../platform/http/conditional/preconditions.js';
import { eventBody } from '../../platform/events/event-types.js';
import { nextEventSeq } from '../../platform/events/outbox.js';
import { invalidState, notFound, validationError } from '../../platform/http/errors.js';
import { loadPage, pageRequest } from '../../platform/http/pagination.js';
import { refusedUrl } from './address-safety.js';
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
import type { CreateWebhookBody, ListQuery, UpdateWebhookBody } from './webhooks.schemas.js';

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
    servedVersion(caller, endpoint.row_version);
    return endpoint;
  }

  return {
    async create(caller: Caller, body: CreateWebhookBody) {
      requireWebhookAdmin(caller);
      checkUrl(body.url);
      const enterpriseId = caller.enterpriseId;
      const secret = newSecret();
      return inTransaction(joinRequestWork(db, caller), async ({ trx }) => {
        const endpoint = await insertEndpoint(trx, enterpriseId, {
          url: body.url,
          event_types: body.event_types,
          description: body.description || null,
          secret,
          created_by: caller.userId,
        });
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
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

    get: readEndpoint,

    /** Enabling clears the failure state, so its queued deliveries resume with a clean slate. */
    async update(caller: Caller, id: string, body: UpdateWebhookBody) {
      requireWebhookAdmin(caller);
      if (body.url !== undefined) checkUrl(body.url);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const before = await lockEndpoint(trx, enterpriseId, id);
        if (before === undefined) throw notFound('Webhook');
        requireCurrentVersion(caller, before.row_version);
        const changes: EndpointChanges = {};
        const audited: Record<string, { from: unknown; to: unknown }> = {};
        const set = <K extends 'url' | 'event_types' | 'description' | 'enabled'>(field: K, value: EndpointChanges[K] | undefined) => {
          if (value === undefined || JSON.stringify(value) === JSON.stringify(before[field])) return;
          (changes as Record<string, unknown>)[field] = value;
          audited[field] = { from: before[field], to: value };
        };
        set('url', body.url);
        set('event_types', body.event_types);
        set('description', body.description === undefined ? undefined : body.description || null);
        set('enabled', body.enabled);
        if (Object.keys(changes).length === 0) {
          servedVersion(caller, before.row_version);
          return before;
        }
        if (changes.enabled === true) Object.assign(changes, { failing_since: null, disabled_reason: null });
        if (changes.enabled === false) changes.disabled_reason = null;
        const updated = await updateEndpoint(trx, enterpriseId, id, changes);
        servedVersion(caller, updated.row_version);
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
          action: 'update',
          entityType: 'webhook',
          entityId: id,
          details: { changes: audited },
        });
        return updated;
      });
    },

    async remove(caller: Caller, id: string): Promise<void> {
      requireWebhookAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      await inTransaction(db, async ({ trx }) => {
        const endpoint = await lockEndpoint(trx, enterpriseId, id);
        if (endpoint === undefined) throw notFound('Webhook');
        requireCurrentVersion(caller, endpoint.row_version);
        await deleteEndpoint(trx, enterpriseId, id);
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
          action: 'delete',
          entityType: 'webhook',
          entityId: id,
          details: { url: endpoint.url, event_types: endpoint.event_types },
        });
      });
    },

    /** The audit entry says that the secret changed and until when the old one signs; never the secrets. */
    async rotateSecret(caller: Caller, id: string) {
      requireWebhookAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      const secret = newSecret();
      return inTransaction(joinRequestWork(db, caller), async ({ trx }) => {
        const endpoint = await lockEndpoint(trx, enterpriseId, id);
        if (endpoint === undefined) throw notFound('Webhook');
        requireCurrentVersion(caller, endpoint.row_version);
        const graceUntil = new Date(now().getTime() + ROTATION_GRACE_MS);
        const rotated = await rotateEndpointSecret(trx, enterpriseId, id, secret, graceUntil);
        servedVersion(caller, rotated.row_version);
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
          action: 'update',
          entityType: 'webhook',
          entityId: id,
          details: { secret_rotated: true, previous_secret_expires_at: graceUntil.toISOString() },
        });
        return { id: rotated.id, secret, previous_secret_expires_at: graceUntil };
      });
    },

    /** A `webhook.test` event for this endpoint alone, queued behind what it already has to deliver. */
    async sendTest(caller: Caller, id: string) {
      requireWebhookAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(joinRequestWork(db, caller), async ({ trx }) => {
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
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
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
