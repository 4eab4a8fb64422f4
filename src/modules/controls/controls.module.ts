import { defineModule } from '../../platform/module.js';
import { registerControlRoutes } from './controls.routes.js';
import { createEffectivenessService } from './effectiveness.service.js';
import { createKeyControlsService } from './key-controls.service.js';
import { registerStarterLibraryRoutes } from './starter-library/starter-library.routes.js';
import { createStarterLibraryService } from './starter-library/starter-library.service.js';
import { createSubControlsService } from './sub-controls.service.js';

/** Control assurance (4.3, D7.1, D7.2): the control library, test results, effectiveness and heat map. */
export const controlsModule = defineModule({
  name: 'controls',
  services: (db) => ({
    keyControls: createKeyControlsService({ db }),
    subControls: createSubControlsService({ db }),
    effectiveness: createEffectivenessService({ db }),
    starterLibrary: createStarterLibraryService({ db }),
  }),
  routes(api, services) {
    registerControlRoutes(api, services);
    registerStarterLibraryRoutes(api, services.starterLibrary);
  },
});
