import { Type, type Static } from 'typebox';
import { CalendarDate, Nullable, PageResponse, PaginationQuery, Timestamp, Uuid, errorResponses, tableFileDownload } from '../../platform/http/schemas.js';
import { BraStatus, Effectiveness, RatingObject, RiskLevel } from '../bras/bras.schemas.js';

/** The risk register: GET /risk-register and its export. */

const Score = (what: string) => Type.Optional(Type.Integer({ minimum: 1, maximum: 5, description: `${what}, 1 to 5 (a heat-map cell's filter)` }));

const registerFilters = {
  legal_entity_id: Type.Optional(Uuid('Only rows of this legal entity (403 when not assigned to the caller)')),
  business_unit_id: Type.Optional(Uuid('Only rows of this business unit (403 when not assigned to the caller)')),
  category: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only scenarios of this catalogue category' })),
  risk_level: Type.Optional(RiskLevel),
  above_appetite: Type.Optional(Type.Boolean({ description: 'true: only residual ratings above the applicable appetite; false: only those within it' })),
  accepted: Type.Optional(
    Type.Boolean({ description: 'true: only rows above appetite with a risk acceptance in force; false: only rows above appetite without one (issue 48)' }),
  ),
  include_live: Type.Optional(
    Type.Boolean({ default: false, description: 'true adds the scenarios of live BRAs (draft, in progress, under review), marked live' }),
  ),
  inherent_impact: Score('Inherent impact'),
  inherent_likelihood: Score('Inherent likelihood'),
  residual_impact: Score('Residual impact'),
  residual_likelihood: Score('Residual likelihood'),
};

export const RegisterQuery = Type.Object({
  ...registerFilters,
  sort: Type.Optional(
    Type.Enum(['residual_score', 'name'], {
      default: 'residual_score',
      description: 'residual_score (default): highest residual score first, unrated last; name: by scenario name',
    }),
  ),
  ...PaginationQuery,
});
export type RegisterQuery = Static<typeof RegisterQuery>;

export const RegisterExportQuery = Type.Object({
  ...registerFilters,
  sort: RegisterQuery.properties.sort,
  format: Type.Optional(Type.Enum(['csv', 'xlsx'], { default: 'csv', description: 'csv (default) or xlsx' })),
});
export type RegisterExportQuery = Static<typeof RegisterExportQuery>;

const Named = (what: string) => Type.Object({ id: Uuid(`The ${what}`), name: Type.String({ description: `Name of the ${what}` }) });

export const RegisterRowView = Type.Object(
  {
    legal_entity: Named('legal entity'),
    business_unit: Nullable(Named('business unit')),
    bra: Type.Object({
      id: Uuid('The BRA'),
      name: Type.String(),
      period: Type.String({ description: 'Free-text label of the assessment period' }),
      assessor: Type.String({ description: "The BRA's assessor as named on it: who owns the scenario's assessment" }),
      status: BraStatus,
      approved_at: Nullable(Timestamp('When it was approved; null for a live BRA')),
      live: Type.Boolean({ description: 'true for a live BRA (include_live=true), false for the newest approved BRA of its place' }),
    }),
    scenario: Type.Object({
      id: Uuid('The scenario link (what ratings, controls and actions refer to)'),
      risk_scenario_id: Uuid('The catalogue scenario'),
      name: Type.String(),
      category: Type.String(),
    }),
    inherent_rating: Nullable(Type.Omit(RatingObject, ['justification'])),
    residual_rating: Nullable(Type.Omit(RatingObject, ['justification'])),
    appetite_threshold: Nullable(Type.Integer({ description: "The threshold of the BRA's applicable appetite now (D6.9)" })),
    above_appetite: Type.Boolean({ description: 'The residual risk score exceeds the threshold (false without a residual rating)' }),
    acceptance_id: Nullable(Uuid('The risk acceptance in force today (GET /risk-acceptances/{id}); null when none')),
    accepted_until: Nullable(CalendarDate('The last day of the acceptance in force: the risk is above appetite, accepted until then; null when none')),
    abilities: Type.Object(
      { accept_risks: Type.Boolean({ description: "Whether the caller may accept this risk, or renew or revoke its acceptance, now: a client admin, the BRA in progress, under review or approved (as the BRA's own ability)" }) },
      { description: 'What the caller may do to this row now' },
    ),
    control_effectiveness: Nullable(
      Type.Enum([...Effectiveness.enum], { description: 'The weakest total effectiveness of the controls linked to the scenario; null when none is assessed' }),
    ),
    open_actions: Type.Integer({ description: 'Mitigation actions of the scenario not completed (archived ones left out)' }),
    overdue_actions: Type.Integer({ description: 'Of those, the overdue ones (D7.3)' }),
  },
  {
    examples: [
      {
        legal_entity: { id: '5b1e0f7a-3c2d-4e8f-9a6b-1c2d3e4f5a6b', name: 'Harbourview Bank plc' },
        business_unit: { id: '6c2f1a8b-4d3e-4f9a-8b7c-2d3e4f5a6b7c', name: 'Retail Banking' },
        bra: {
          id: '7d3a2b9c-5e4f-4a0b-9c8d-3e4f5a6b7c8d',
          name: 'Retail Banking fraud risk assessment FY2026',
          period: 'FY2026',
          assessor: 'Priya Raman',
          status: 'approved',
          approved_at: '2026-06-30T14:05:00.000Z',
          live: false,
        },
        scenario: { id: '8e4b3c0d-6f5a-4b1c-8d9e-4f5a6b7c8d9e', risk_scenario_id: '9f5c4d1e-7a6b-4c2d-9e0f-5a6b7c8d9e0f', name: 'Cyber intrusion and data theft', category: 'External fraud' },
        inherent_rating: { impact_score: 5, likelihood_score: 3, risk_score: 15, risk_level: 'High' },
        residual_rating: { impact_score: 4, likelihood_score: 3, risk_score: 12, risk_level: 'High' },
        appetite_threshold: 9,
        above_appetite: true,
        acceptance_id: '3f8a2c1d-6b4e-4d7f-9a0b-2c3d4e5f6a7b',
        accepted_until: '2027-06-30',
        abilities: { accept_risks: true },
        control_effectiveness: 'Moderately Effective',
        open_actions: 2,
        overdue_actions: 1,
      },
    ],
  },
);
export type RegisterRowView = Static<typeof RegisterRowView>;

const tags = ['reporting'];
const SCOPE =
  'Client admins see the whole enterprise; assessors and reviewers their assigned entities and units (D5). ' +
  'A filter naming an entity or unit unknown in the enterprise is 400 INVALID_REFERENCE, one not assigned to the caller 403.';
const ROWS =
  'One row per included scenario of the newest approved BRA of each legal entity / business unit (include_live=true adds live BRAs, marked), ' +
  'with its current ratings, the applicable appetite threshold now, whether the residual score is above it, the weakest effectiveness of its linked ' +
  'controls and its open and overdue actions.';

export const registerSchema = {
  summary: 'The risk register',
  description: `${ROWS} risk_level filters the residual level. ${SCOPE}`,
  operationId: 'reporting.register',
  tags,
  querystring: RegisterQuery,
  response: { 200: PageResponse(RegisterRowView), ...errorResponses([]) },
};

export const REGISTER_COLUMNS = [
  'legal_entity',
  'business_unit',
  'bra_id',
  'bra_name',
  'bra_period',
  'bra_status',
  'bra_approved_at',
  'live',
  'scenario_id',
  'scenario_name',
  'category',
  'inherent_impact',
  'inherent_likelihood',
  'inherent_score',
  'inherent_level',
  'residual_impact',
  'residual_likelihood',
  'residual_score',
  'residual_level',
  'appetite_threshold',
  'above_appetite',
  'control_effectiveness',
  'open_actions',
  'overdue_actions',
  'accepted_until',
] as const;

export const registerExportSchema = {
  summary: 'Export the risk register as CSV or XLSX',
  description:
    `The rows of the register under the same filters and sort, all of them, streamed as a download in constant memory: ` +
    `CSV (RFC 4180, UTF-8) or XLSX (one sheet, written as it streams). Columns: ${REGISTER_COLUMNS.join(', ')}. ` +
    `Text a spreadsheet would read as a formula (starting with =, +, -, @, tab or CR) is prefixed with '. ` +
    `File name risk-register-<YYYYMMDD>.<csv|xlsx>. Audited as an export. ${SCOPE}`,
  operationId: 'reporting.register.export',
  tags,
  querystring: RegisterExportQuery,
  ...tableFileDownload(REGISTER_COLUMNS),
};
