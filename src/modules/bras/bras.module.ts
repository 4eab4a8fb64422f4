import { checkpointKeySource, hasCheckpointKey } from '../../platform/audit/checkpoint-key.js';
import type { Executor } from '../../platform/db/schema.js';
import { defineModule, type ServicePlatform } from '../../platform/module.js';
import { createCheckpointsService } from '../audit-trail/checkpoints.service.js';
import { registerBraDiffRoutes } from './history/diff.routes.js';
import { createBraDiffService } from './history/diff.service.js';
import { registerRollForwardRoutes } from './history/roll-forward.routes.js';
import { createRollForwardService } from './history/roll-forward.service.js';
import { registerBraCommentRoutes } from './review/comments.routes.js';
import { createBraCommentsService } from './review/comments.service.js';
import { registerBraContentRoutes } from './assessment/content.routes.js';
import { createBraContentService } from './assessment/content.service.js';
import { registerBraSnapshotRoutes } from './history/snapshots.routes.js';
import { createBraSnapshotsService } from './history/snapshots.service.js';
import { registerBraTransitionRoutes } from './review/transitions.routes.js';
import { createBraTransitionsService } from './review/transitions.service.js';
import { registerBraRoutes } from './assessment/bras.routes.js';
import { registerBulkScenarioRoutes } from './assessment/bulk-scenarios.routes.js';
import { createBulkScenariosService } from './assessment/bulk-scenarios.service.js';
import { createBrasService } from './assessment/bras.service.js';
import { registerRiskAcceptanceRoutes } from './review/acceptances.routes.js';
import { createRiskAcceptancesService } from './review/acceptances.service.js';
import { expireLapsedAcceptances } from './acceptance/acceptance-expiry.js';
import { intervalJob } from '../../platform/jobs.js';

/**
 * After an approval, the enterprise's chain head is signed (audit-trail's checkpoints), when a checkpoint
 * key exists. Bound to a caller's transaction (the demo), the hook would run after that transaction ends:
 * the periodic signing covers it instead.
 */
function signChainAfterApproval(db: Executor, platform: ServicePlatform) {
  if (db.isTransaction) return undefined;
  const checkpoints = createCheckpointsService({ db, keys: checkpointKeySource(platform.config) });
  return async (enterpriseId: string) => {
    if (hasCheckpointKey(platform.config)) await checkpoints.signChain(enterpriseId);
  };
}

/** Business risk assessments (2.1, 3.1, 4.2, D6): sibling services, each with its routes file. */
export const brasModule = defineModule({
  name: 'bras',
  services: (db, platform) => ({
    bras: createBrasService({ db, reads: platform.reads }),
    transitions: createBraTransitionsService({ db, onApproved: signChainAfterApproval(db, platform) }),
    content: createBraContentService({ db }),
    snapshots: createBraSnapshotsService({ db }),
    diff: createBraDiffService({ db }),
    rollForward: createRollForwardService({ db }),
    comments: createBraCommentsService({ db }),
    bulkScenarios: createBulkScenariosService({ db }),
    acceptances: createRiskAcceptancesService({ db, maxDays: platform.config.riskAcceptanceMaxDays }),
  }),
  routes(api, services) {
    registerBraRoutes(api, services.bras);
    registerBraTransitionRoutes(api, services.transitions);
    registerBraContentRoutes(api, services.content);
    registerBraSnapshotRoutes(api, services.snapshots);
    registerBraDiffRoutes(api, services.diff);
    registerRollForwardRoutes(api, services.rollForward);
    registerBraCommentRoutes(api, services.comments);
    registerBulkScenarioRoutes(api, services.bulkScenarios);
    registerRiskAcceptanceRoutes(api, services.acceptances);
  },
  jobs: (platform) => [
    // Risk acceptances past their last day: marked expired, announced, and one alert per enterprise and day.
    intervalJob('bras.acceptance_expiry', 60_000, platform.log, async () => {
      await expireLapsedAcceptances(platform.database.db, new Date());
    }, { oncePerPeriod: platform.database.db }),
  ],
});
