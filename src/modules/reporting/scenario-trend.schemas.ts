import { Type, type Static } from 'typebox';
import { DataResponse, Nullable, Timestamp, Uuid, errorResponses } from '../../platform/http/schemas.js';
import { RatingScores } from '../bras/bras.schemas.js';

/** GET /risk-scenarios/{id}/trend: one catalogue scenario across the approved BRAs the caller sees. */

export const ScenarioTrendParams = Type.Object({ id: Uuid('The catalogue scenario') });

export const ScenarioTrendQuery = Type.Object({
  legal_entity_id: Type.Optional(Uuid('Only approved BRAs of this legal entity (400 when unknown, 403 when not assigned to the caller)')),
  business_unit_id: Type.Optional(Uuid('Only approved BRAs of this business unit (400 when unknown or of another entity, 403 when not assigned)')),
});
export type ScenarioTrendQuery = Static<typeof ScenarioTrendQuery>;

const NamedRef = (what: string) => Type.Object({ id: Uuid(`The ${what}`), name: Type.String({ description: `Name of the ${what}` }) });

export const TrendPoint = Type.Object({
  bra: Type.Object({
    id: Uuid('The approved BRA'),
    name: Type.String(),
    period: Type.String({ description: 'Its period label' }),
    approved_at: Timestamp('When it was approved: the order of the points'),
    snapshot_id: Nullable(Uuid('Its approval snapshot')),
    rolled_from_bra_id: Nullable(Uuid('The approved BRA it was rolled forward from, if any')),
  }),
  legal_entity: NamedRef('legal entity'),
  business_unit: Nullable(NamedRef('business unit')),
  bra_risk_scenario_id: Uuid('The scenario link in that BRA'),
  inherent_rating: Nullable(RatingScores),
  residual_rating: Nullable(RatingScores),
});
export type TrendPoint = Static<typeof TrendPoint>;

export const ScenarioTrendView = Type.Object(
  {
    risk_scenario: Type.Object({ id: Uuid(), name: Type.String(), category: Type.String() }),
    points: Type.Array(TrendPoint, {
      description: 'One per approved BRA of the caller’s scope in which the scenario is included, oldest approval first (ties by BRA id)',
    }),
  },
  {
    examples: [
      {
        risk_scenario: { id: '9f5c4d1e-7a6b-4c2d-9e0f-5a6b7c8d9e0f', name: 'Cyber intrusion and data theft', category: 'External fraud' },
        points: [
          {
            bra: {
              id: '1b8d6f30-7a2c-4e5d-90b1-6c7d8e9f0a1b',
              name: 'Retail Banking fraud risk assessment FY2026',
              period: 'FY2026',
              approved_at: '2026-06-30T14:05:00.000Z',
              snapshot_id: '4e1b9c63-0d5f-4a8b-c3e4-9f0a1b2c3d4e',
              rolled_from_bra_id: null,
            },
            legal_entity: { id: '5b1e0f7a-3c2d-4e8f-9a6b-1c2d3e4f5a6b', name: 'Harbourview Bank plc' },
            business_unit: { id: '6c2f1a8b-4d3e-4f9a-8b7c-2d3e4f5a6b7c', name: 'Retail Banking' },
            bra_risk_scenario_id: '8e4b3c0d-6f5a-4b1c-8d9e-4f5a6b7c8d9e',
            inherent_rating: { impact_score: 5, likelihood_score: 3, risk_score: 15, risk_level: 'High' },
            residual_rating: { impact_score: 4, likelihood_score: 3, risk_score: 12, risk_level: 'High' },
          },
        ],
      },
    ],
  },
);
export type ScenarioTrendView = Static<typeof ScenarioTrendView>;

export const scenarioTrendSchema = {
  summary: "A scenario's ratings across approved BRAs",
  description:
    'The inherent and residual rating (score and level, with impact and likelihood) of one catalogue scenario in each approved BRA the caller sees, by ' +
    'approval date: client admins the whole enterprise, assessors and reviewers their assigned entities and units (D5, in SQL). Read from the approved ' +
    'BRAs’ rows, which cannot change after approval and so equal their approval snapshots. Excluded scenarios are left out. An unknown scenario, or ' +
    "another enterprise's: 404.",
  operationId: 'reporting.scenario_trend',
  tags: ['reporting'],
  params: ScenarioTrendParams,
  querystring: ScenarioTrendQuery,
  response: { 200: DataResponse(ScenarioTrendView), ...errorResponses([404]) },
};
