import { defineModule } from '../../platform/module.js';
import { registerControlRoutes } from './controls.routes.js';
import { createEffectivenessService } from './effectiveness/effectiveness.service.js';
import { createKeyControlsService } from './library/key-controls.service.js';
import { createLibraryExportService } from './library-file/library-export.service.js';
import { createLibraryImportService } from './library-file/library-import.service.js';
import { registerLibraryRoutes } from './library-file/library.routes.js';
import { registerStarterLibraryRoutes } from './starter-library/starter-library.routes.js';
import { createStarterLibraryService } from './starter-library/starter-library.service.js';
import { createSubControlTestsService } from './library/sub-control-tests.service.js';
import { createSubControlsService } from './library/sub-controls.service.js';

/**
 * Control assurance (4.3, D7.1, D7.2): the control library, test results and their history, effectiveness
 * and heat map with their drill-down, and the library as a file (export, import).
 */
export const controlsModule = defineModule({
  name: 'controls',
  services: (db, platform) => ({
    keyControls: createKeyControlsService({ db }),
    subControls: createSubControlsService({ db }),
    tests: createSubControlTestsService({ db }),
    effectiveness: createEffectivenessService({ db, reads: platform.reads }),
    libraryImport: createLibraryImportService({ db }),
    libraryExport: createLibraryExportService({
      db,
      onExportError: (error) => platform.log.error({ err: error }, 'control library export failed while streaming'),
    }),
    starterLibrary: createStarterLibraryService({ db }),
  }),
  async routes(api, services) {
    registerControlRoutes(api, services);
    await registerLibraryRoutes(api, services);
    registerStarterLibraryRoutes(api, services.starterLibrary);
  },
});
