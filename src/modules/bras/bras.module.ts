import { defineModule } from '../../platform/module.js';
import { registerBraContentRoutes } from './bra-content.routes.js';
import { createBraContentService } from './bra-content.service.js';
import { registerBraSnapshotRoutes } from './bra-snapshots.routes.js';
import { createBraSnapshotsService } from './bra-snapshots.service.js';
import { registerBraTransitionRoutes } from './bra-transitions.routes.js';
import { createBraTransitionsService } from './bra-transitions.service.js';
import { registerBraRoutes } from './bras.routes.js';
import { createBrasService } from './bras.service.js';

/** Business risk assessments (2.1, 3.1, 4.2, D6): four sibling services, each with its routes file. */
export const brasModule = defineModule({
  name: 'bras',
  services: (db) => ({
    bras: createBrasService({ db }),
    transitions: createBraTransitionsService({ db }),
    content: createBraContentService({ db }),
    snapshots: createBraSnapshotsService({ db }),
  }),
  routes(api, services) {
    registerBraRoutes(api, services.bras);
    registerBraTransitionRoutes(api, services.transitions);
    registerBraContentRoutes(api, services.content);
    registerBraSnapshotRoutes(api, services.snapshots);
  },
});
