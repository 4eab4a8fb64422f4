import { checkpointKeySource } from '../../platform/audit/checkpoint-key.js';
import type { Executor } from '../../platform/db/schema.js';
import { intervalJob } from '../../platform/jobs.js';
import { defineModule, type ServicePlatform } from '../../platform/module.js';
import { registerAuditTrailRoutes, type AuditTrailServices } from './audit-trail.routes.js';
import { createAuditTrailService } from './audit-trail.service.js';
import { CHECKPOINT_METRICS } from './checkpoint-metrics.js';
import { checkEvidenceIntegrity } from '../evidence/evidence-integrity.js';
import { evidenceStoreFor } from '../evidence/storage/store-for.js';
import { createCheckpointsService } from './checkpoints.service.js';

function auditTrailServices(db: Executor, platform: ServicePlatform): AuditTrailServices {
  const checkpoints = createCheckpointsService({ db, keys: checkpointKeySource(platform.config) });
  return {
    checkpoints,
    // Read-only: bound to the database (the export opens a transaction of its own).
    trail: createAuditTrailService({
      db,
      checkpoints,
      onExportError: (error) => platform.log.error({ err: error }, 'audit export failed while streaming'),
      reads: platform.reads,
      evidenceIntegrity: (enterpriseId) => checkEvidenceIntegrity(db, evidenceStoreFor(platform.config), enterpriseId),
    }),
  };
}

/** The audit trail (4.6, D7.5, D7.6), and the schedule that signs a checkpoint of every chain that moved. */
export const auditTrailModule = defineModule({
  name: 'audit-trail',
  services: auditTrailServices,
  routes: registerAuditTrailRoutes,
  metrics: () => CHECKPOINT_METRICS,
  jobs(platform) {
    const minutes = platform.config.audit.checkpointIntervalMinutes;
    if (minutes <= 0) return [];
    const { checkpoints } = auditTrailServices(platform.database.db, platform);
    return [
      intervalJob('audit-trail.checkpoints', minutes * 60_000, platform.log, async () => {
        const signed = await checkpoints.signChainsAhead();
        if (signed > 0) platform.log.info({ signed }, 'audit checkpoints signed');
      }, { oncePerPeriod: platform.database.db }),
    ];
  },
});
