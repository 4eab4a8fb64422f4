import { defineModule } from '../../platform/module.js';
import { registerEvidenceRoutes } from './evidence.routes.js';
import { createEvidenceService } from './evidence.service.js';
import { evidenceStoreFor } from './storage/store-for.js';

/** Evidence files behind tests, actions, BRAs and scenarios (issue 48). */
export const evidenceModule = defineModule({
  name: 'evidence',
  services: (db, platform) => createEvidenceService({ db, store: evidenceStoreFor(platform.config), limits: platform.config.evidence }),
  routes: (api, service) => registerEvidenceRoutes(api, service, service.limits.maxFileBytes),
});
