import { callerOf } from '../../platform/auth/principal.js';
import { sendDownload } from '../../platform/http/download.js';
import type { App } from '../../platform/module.js';
import type { DashboardService } from './dashboard.service.js';
import { dashboardSchema } from './dashboard.schemas.js';
import { registerExportSchema, registerSchema } from './register.schemas.js';
import type { RegisterService } from './register.service.js';
import { reportSchema } from './report.schemas.js';
import type { ReportService } from './report.service.js';
import { scenarioTrendSchema } from './scenario-trend.schemas.js';
import type { ScenarioTrendService } from './scenario-trend.service.js';

export interface ReportingServices {
  register: RegisterService;
  dashboard: DashboardService;
  report: ReportService;
  trend: ScenarioTrendService;
}

/** The risk register and its export, the dashboard, and a BRA's report. */
export function registerReportingRoutes(api: App, { register, dashboard, report, trend }: ReportingServices): void {
  api.get('/risk-register', { schema: registerSchema }, async (request) => register.page(callerOf(request), request.query));

  api.get('/risk-register/export', { schema: registerExportSchema }, async (request, reply) => {
    const file = await register.export(callerOf(request), request.query);
    return sendDownload(reply, file, file.stream);
  });

  api.get('/dashboard', { schema: dashboardSchema }, async (request) => ({
    data: await dashboard.dashboard(callerOf(request), request.query),
    message: 'Dashboard computed',
  }));

  api.get('/risk-scenarios/:id/trend', { schema: scenarioTrendSchema }, async (request) => ({
    data: await trend.trend(callerOf(request), request.params.id, request.query),
    message: 'Trend computed',
  }));

  api.get('/bras/:bra_id/report', { schema: reportSchema }, async (request, reply) => {
    const file = await report.report(callerOf(request), request.params.bra_id, request.query);
    return sendDownload(reply, file, file.file);
  });
}
