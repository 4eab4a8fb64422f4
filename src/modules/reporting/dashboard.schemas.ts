import { Type, type Static } from 'typebox';
import { CalendarDate, Nullable, Timestamp, Uuid, errorResponses } from '../../platform/http/schemas.js';
import { RiskLevel } from '../bras/bras.schemas.js';

/** GET /dashboard: the enterprise's risk picture in one call. */

export const DashboardQuery = Type.Object({
  legal_entity_id: Type.Optional(Uuid('Only this legal entity (403 when not assigned to the caller)')),
  business_unit_id: Type.Optional(Uuid('Only this business unit (403 when not assigned to the caller)')),
});
export type DashboardQuery = Static<typeof DashboardQuery>;

const Count = (description: string) => Type.Integer({ minimum: 0, description });

const HeatMapView = Type.Object({
  impact_levels: Type.Array(Type.Integer()),
  likelihood_levels: Type.Array(Type.Integer()),
  cells: Type.Array(
    Type.Object({
      impact_score: Type.Integer(),
      likelihood_score: Type.Integer(),
      risk_score: Type.Integer({ description: 'impact × likelihood' }),
      risk_level: RiskLevel,
      count: Count('Register rows rated in this cell'),
      register_filter: Type.Record(Type.String(), Type.Union([Type.String(), Type.Integer()]), {
        description: 'The GET /risk-register query parameters that list exactly this cell’s rows',
      }),
      register_query: Type.String({ description: 'The same filter as a query string' }),
    }),
    { description: 'All 25 cells, impact 5 first, likelihood 1 to 5 within' },
  ),
  total: Count('Rows with a rating of this kind'),
});

export const DashboardView = Type.Object(
  {
    bras_by_status: Type.Object(
      {
        draft: Count(''),
        in_progress: Count(''),
        under_review: Count(''),
        approved: Count(''),
        cancelled: Count(''),
        total: Count('Every BRA the caller sees in the place'),
      },
      { description: 'The BRAs GET /bras lists with the same filters, by status' },
    ),
    scenarios: Type.Object(
      {
        assessed: Count('Register rows with an inherent and a residual rating'),
        above_appetite: Count('Register rows whose residual score exceeds the applicable appetite'),
        above_appetite_accepted: Count('Of those, the ones with a risk acceptance in force today (issue 48)'),
        above_appetite_unaccepted: Count('Of those, the ones without: above_appetite − above_appetite_accepted'),
        within_appetite: Count('assessed − above_appetite'),
        within_appetite_percentage: Type.Integer({ description: 'round(100 × within / assessed); 0 when nothing is assessed' }),
      },
      { description: 'Over the risk register’s rows: the included scenarios of the newest approved BRA of each entity / unit' },
    ),
    heat_maps: Type.Object({ inherent: HeatMapView, residual: HeatMapView }),
    overdue_actions: Type.Object(
      { low: Count(''), medium: Count(''), high: Count(''), critical: Count(''), total: Count('') },
      { description: 'The caller’s overdue actions (GET /mitigation-actions?overdue_only=true), by priority; with a place, those of its BRAs' },
    ),
    sub_controls: Type.Object(
      {
        highly_effective: Count(''),
        effective: Count(''),
        moderately_effective: Count(''),
        less_effective: Count(''),
        not_effective: Count(''),
        not_assessed: Count(''),
        total: Count('Non-archived sub-controls in scope (as GET /controls/effectiveness counts them)'),
        untested_over_12_months: Count('Of those, never tested or last tested more than 12 months ago'),
      },
      { description: 'Sub-controls by total effectiveness' },
    ),
    trend: Type.Array(
      Type.Object({
        period: Type.String({ description: 'The period label of the approved BRAs' }),
        first_approved_at: Timestamp('The earliest approval of the period (the trend’s order)'),
        bras: Count('Approved BRAs of the period'),
        scenarios: Count('Their included scenarios with a residual rating'),
        average_residual_score: Nullable(Type.Number({ description: 'Average residual score, two decimals' })),
        max_residual_score: Nullable(Type.Integer()),
      }),
      { description: 'Per approval period, oldest first: is the residual risk getting better?' },
    ),
    acceptances_expiring: Type.Array(
      Type.Object({
        acceptance_id: Uuid('The risk acceptance (GET /risk-acceptances/{id})'),
        bra_id: Uuid('Its BRA'),
        bra_name: Type.String(),
        scenario_id: Uuid('The scenario link accepted'),
        scenario_name: Type.String(),
        expires_on: CalendarDate('Its last day'),
      }),
      { description: 'Risk acceptances in force on register rows whose last day is within 30 days, soonest first, at most 10 (issue 48)' },
    ),
  },
  {
    examples: [
      {
        bras_by_status: { draft: 1, in_progress: 2, under_review: 1, approved: 1, cancelled: 1, total: 6 },
        scenarios: { assessed: 3, above_appetite: 1, above_appetite_accepted: 1, above_appetite_unaccepted: 0, within_appetite: 2, within_appetite_percentage: 67 },
        heat_maps: { inherent: { impact_levels: [1, 2, 3, 4, 5], likelihood_levels: [1, 2, 3, 4, 5], cells: [], total: 3 }, residual: { impact_levels: [1, 2, 3, 4, 5], likelihood_levels: [1, 2, 3, 4, 5], cells: [], total: 3 } },
        overdue_actions: { low: 0, medium: 1, high: 2, critical: 0, total: 3 },
        sub_controls: { highly_effective: 2, effective: 3, moderately_effective: 1, less_effective: 1, not_effective: 0, not_assessed: 2, total: 9, untested_over_12_months: 3 },
        trend: [{ period: 'FY2026', first_approved_at: '2026-06-30T14:05:00.000Z', bras: 1, scenarios: 3, average_residual_score: 8.33, max_residual_score: 12 }],
        acceptances_expiring: [
          {
            acceptance_id: '3f8a2c1d-6b4e-4d7f-9a0b-2c3d4e5f6a7b',
            bra_id: '7d3a2b9c-5e4f-4a0b-9c8d-3e4f5a6b7c8d',
            bra_name: 'Retail Banking BRA FY2026',
            scenario_id: '9d2f6a3b-1c4e-4b8a-8e7f-5a6b7c8d9e01',
            scenario_name: 'Card-not-present fraud',
            expires_on: '2026-12-20',
          },
        ],
      },
    ],
  },
);
export type DashboardView = Static<typeof DashboardView>;

export const dashboardSchema = {
  summary: 'The risk dashboard',
  description:
    'BRAs by status; scenarios assessed, above appetite and the share within it; the inherent and residual 5×5 heat maps, each cell with the ' +
    'register filter that lists it; overdue actions by priority; sub-controls by effectiveness and those untested for over 12 months; the trend of ' +
    'residual scores per approval period. Computed in one statement. Client admins see the whole enterprise; assessors and reviewers their ' +
    'assigned entities and units (D5). A filter unknown in the enterprise is 400 INVALID_REFERENCE, one not assigned to the caller 403.',
  operationId: 'reporting.dashboard',
  tags: ['reporting'],
  querystring: DashboardQuery,
  response: { 200: Type.Object({ data: DashboardView, message: Type.String() }), ...errorResponses([]) },
};
