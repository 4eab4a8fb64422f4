import type { App } from '../../platform/module.js';
import type { CheckpointsService } from './checkpoints.service.js';

/**
 * Signs every chain whose head moved, every `minutes` (0: never). The timer does not keep the process
 * alive and stops when the app closes; a failed round is logged and the next one tries again.
 */
export function startCheckpointSchedule(api: App, checkpoints: CheckpointsService, minutes: number): void {
  if (minutes <= 0) return;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    checkpoints
      .signChainsAhead()
      .then((signed) => {
        if (signed > 0) api.log.info({ signed }, 'audit checkpoints signed');
      })
      .catch((error: unknown) => api.log.error({ err: error }, 'signing audit checkpoints failed'))
      .finally(() => {
        running = false;
      });
  }, minutes * 60_000);
  timer.unref();
  api.addHook('onClose', async () => clearInterval(timer));
}
