import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { callerOf } from '../../platform/auth/principal.js';
import { answer, termsOf, created } from '../../platform/http/conditional/answers.js';
import type { App } from '../../platform/module.js';
import {
  createWebhookSchema,
  deleteWebhookSchema,
  getWebhookSchema,
  listDeliveriesSchema,
  listWebhooksSchema,
  retryDeliverySchema,
  rotateSecretSchema,
  testWebhookSchema,
  updateWebhookSchema,
} from './webhooks.schemas.js';
import type { WebhooksService } from './webhooks.service.js';

/** Webhook endpoints and their deliveries (client admins). */
export function registerWebhookRoutes(app: App, service: WebhooksService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post('/webhooks', { schema: createWebhookSchema, config: { idempotent: true } }, async (request, reply) =>
    created(reply, await service.create(callerOf(request), request.body, termsOf(request)), 'Webhook created'));

  api.get('/webhooks', { schema: listWebhooksSchema }, async (request) => service.list(callerOf(request), request.query));

  api.get('/webhooks/:webhook_id', { schema: getWebhookSchema, config: { etag: true } }, async (request) =>
    answer(request, await service.get(callerOf(request), request.params.webhook_id)),
  );

  api.patch('/webhooks/:webhook_id', { schema: updateWebhookSchema, config: { ifMatch: true } }, async (request) =>
    answer(request, await service.update(callerOf(request), request.params.webhook_id, request.body, termsOf(request)), 'Webhook updated'),
  );

  api.delete('/webhooks/:webhook_id', { schema: deleteWebhookSchema, config: { ifMatch: true } }, async (request) => {
    await service.remove(callerOf(request), request.params.webhook_id, termsOf(request));
    return { message: 'Webhook deleted' };
  });

  api.post('/webhooks/:webhook_id/rotate-secret', { schema: rotateSecretSchema, config: { ifMatch: true } }, async (request) =>
    answer(request, await service.rotateSecret(callerOf(request), request.params.webhook_id, termsOf(request)), 'Secret rotated; the previous one signs too for 24 hours'),
  );

  api.post('/webhooks/:webhook_id/test', { schema: testWebhookSchema, config: { idempotent: true } }, async (request, reply) =>
    created(reply, await service.sendTest(callerOf(request), request.params.webhook_id, termsOf(request)), 'Test event queued'));

  api.get('/webhooks/:webhook_id/deliveries', { schema: listDeliveriesSchema }, async (request) =>
    service.listDeliveries(callerOf(request), request.params.webhook_id, request.query),
  );

  api.post('/webhooks/:webhook_id/deliveries/:delivery_id/retry', { schema: retryDeliverySchema }, async (request) => ({
    data: await service.retryDelivery(callerOf(request), request.params.webhook_id, request.params.delivery_id),
    message: 'Delivery queued again',
  }));
}
