import { intervalJob } from '../../platform/jobs.js';
import { defineModule } from '../../platform/module.js';
import { createDispatcher } from './webhook-dispatcher.js';
import { WEBHOOK_METRICS } from './webhook-metrics.js';
import { createSender } from './webhook-sender.js';
import { registerWebhookRoutes } from './webhooks.routes.js';
import { createWebhooksService } from './webhooks.service.js';

/**
 * Webhooks: the enterprise's endpoints and their deliveries, and the dispatcher that sends the events
 * modules put in the outbox (platform/events), signed the Standard Webhooks way.
 */
export const webhooksModule = defineModule({
  name: 'webhooks',
  services: (db, platform) => createWebhooksService({ db, allowLoopback: platform.config.webhooks.allowLoopback }),
  routes: registerWebhookRoutes,
  metrics: () => WEBHOOK_METRICS,
  jobs: (platform) => {
    const sender = createSender({ allowLoopback: platform.config.webhooks.allowLoopback });
    const dispatcher = createDispatcher({ db: platform.database.db, sender, log: platform.log });
    const job = intervalJob('webhooks.dispatcher', platform.config.webhooks.dispatchIntervalMs, platform.log, async () => {
      await dispatcher.round();
    });
    return [
      {
        name: job.name,
        start() {
          const stop = job.start();
          return async () => {
            await stop();
            sender.close();
          };
        },
      },
    ];
  },
});
