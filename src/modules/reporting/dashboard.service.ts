import type { Caller } from '../../platform/auth/principal.js';
import { PRIMARY_READS, type RoutedReads } from '../../platform/db/read-routing.js';
import type { Executor } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { utcToday } from '../actions/overdue.js';
import { BRA_STATUSES } from '../bras/bras.lifecycle.js';
import { completionPercentage } from '../bras/answer/summary.js';
import { dashboardFigures } from './dashboard.repository.js';
import type { DashboardQuery, DashboardView } from './dashboard.schemas.js';
import { checkPlaceFilter } from './place-filter.js';
import { dashboardActionScope, registerScope, requireRegisterReader } from './reporting.policy.js';
import { shapeRiskHeatMap } from './risk-heat-map.js';

const PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
const EFFECTIVENESS_KEYS = {
  highly_effective: 'Highly Effective',
  effective: 'Effective',
  moderately_effective: 'Moderately Effective',
  less_effective: 'Less Effective',
  not_effective: 'Not Effective',
  not_assessed: 'not_assessed',
} as const;

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/**
 * The dashboard (reporting.dashboard): the figures of one statement, shaped. Its heat maps, effectiveness
 * and trend may be read from the replica (db/read-routing.ts).
 */
export function createDashboardService({ db: primary, reads = PRIMARY_READS }: { db: Executor; reads?: RoutedReads }) {
  return {
    async dashboard(caller: Caller, query: DashboardQuery, now = new Date()): Promise<DashboardView> {
      requireRegisterReader(caller);
      const db = await reads.executorFor(primary, caller.userId);
      await checkPlaceFilter(db, caller, query);
      const place = { legal_entity_id: query.legal_entity_id, business_unit_id: query.business_unit_id };
      const figures = await inTransaction(db, ({ trx }) =>
        dashboardFigures(trx, {
          enterpriseId: caller.enterpriseId,
          scope: registerScope(caller),
          actionScope: dashboardActionScope(caller),
          filter: place,
          today: utcToday(now),
        }),
      );
      const byStatus = Object.fromEntries(BRA_STATUSES.map((status) => [status, figures.bras_by_status?.[status] ?? 0])) as Record<(typeof BRA_STATUSES)[number], number>;
      const overdue = Object.fromEntries(PRIORITIES.map((priority) => [priority, figures.overdue_by_priority?.[priority] ?? 0])) as Record<(typeof PRIORITIES)[number], number>;
      const effectiveness = Object.fromEntries(
        Object.entries(EFFECTIVENESS_KEYS).map(([key, label]) => [key, figures.effectiveness?.[label] ?? 0]),
      ) as Record<keyof typeof EFFECTIVENESS_KEYS, number>;
      const within = figures.assessed - figures.above_appetite;
      return {
        bras_by_status: { ...byStatus, total: sum(Object.values(byStatus)) },
        scenarios: {
          assessed: figures.assessed,
          above_appetite: figures.above_appetite,
          above_appetite_accepted: figures.above_appetite_accepted,
          above_appetite_unaccepted: figures.above_appetite - figures.above_appetite_accepted,
          within_appetite: within,
          within_appetite_percentage: completionPercentage(within, figures.assessed),
        },
        heat_maps: {
          inherent: shapeRiskHeatMap('inherent', figures.inherent_cells, place),
          residual: shapeRiskHeatMap('residual', figures.residual_cells, place),
        },
        overdue_actions: { ...overdue, total: sum(Object.values(overdue)) },
        sub_controls: { ...effectiveness, total: figures.sub_controls_total, untested_over_12_months: figures.untested_12_months },
        trend: figures.trend,
        acceptances_expiring: figures.acceptances_expiring,
      };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
