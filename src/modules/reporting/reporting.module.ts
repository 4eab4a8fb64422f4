import type { Kysely } from 'kysely';
import type { DB, Executor } from '../../platform/db/schema.js';
import { defineModule, type ServicePlatform } from '../../platform/module.js';
import { createDashboardService } from './dashboard.service.js';
import { createRegisterService } from './register.service.js';
import { createReportService } from './report.service.js';
import { createScenarioTrendService } from './scenario-trend.service.js';
import { registerReportingRoutes, type ReportingServices } from './reporting.routes.js';

function reportingServices(db: Executor, platform: ServicePlatform): ReportingServices {
  return {
    // Read-only: the export opens a cursor transaction of its own on the database it is given.
    register: createRegisterService({
      db: db as Kysely<DB>,
      onExportError: (error) => platform.log.error({ err: error }, 'risk register export failed while streaming'),
    }),
    dashboard: createDashboardService({ db, reads: platform.reads }),
    report: createReportService({ db }),
    trend: createScenarioTrendService({ db }),
  };
}

/** The enterprise's risk picture: the risk register (and its export), the dashboard, each BRA's report, and a scenario's trend across approved BRAs. */
export const reportingModule = defineModule({
  name: 'reporting',
  services: reportingServices,
  routes: registerReportingRoutes,
});
