import { Type, type Static } from 'typebox';
import { DataResponse, Nullable, Timestamp, Uuid, errorResponses } from '../../../platform/http/schemas.js';
import { BRA_READERS, BraParams, RatingScores, RiskLevel } from '../bras.schemas.js';

/** GET /bras/{bra_id}/diff: what changed between two snapshots of a BRA, or a snapshot and its live content. */

const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

export const BraDiffQuery = Type.Object({
  from: Uuid("A snapshot listed by GET /bras/{bra_id}/snapshots: the BRA's own, or after a roll-forward the approval snapshot it started from"),
  to: Type.String({
    pattern: `^(current|${UUID_PATTERN})$`,
    description: "Another listed snapshot, or `current`: the BRA's live content, built as a snapshot would be taken now",
    examples: ['current'],
  }),
});
export type BraDiffQuery = Static<typeof BraDiffQuery>;

const scenarioRef = {
  risk_scenario_id: Uuid('The catalogue scenario: what scenarios are matched by, across BRAs too'),
  name: Type.String({ description: 'Name of the catalogue scenario' }),
  category: Type.String({ description: 'Category of the catalogue scenario' }),
};
const ScenarioRef = Type.Object(scenarioRef);
const ScenarioEntry = Type.Object({
  ...scenarioRef,
  included: Type.Boolean(),
  inherent_rating: Nullable(RatingScores),
  residual_rating: Nullable(RatingScores),
});

const controlRef = {
  risk_scenario_id: Nullable(Uuid('The catalogue scenario of the scenario the control mitigates; null for a BRA-wide link')),
  scenario_name: Nullable(Type.String({ description: 'Its name; null for a BRA-wide link' })),
  key_control_id: Uuid(),
  key_control_name: Type.String(),
  sub_control_id: Uuid(),
  sub_control_name: Type.String(),
};
const Results = Type.Object({
  tod: Nullable(Type.String({ description: 'Test of Design (A to E)' })),
  toe: Nullable(Type.String({ description: 'Test of Effectiveness (1 to 5)' })),
  total_effectiveness: Nullable(Type.String({ description: 'Total effectiveness (3.5)' })),
});
const ControlEntry = Type.Object({ ...controlRef, ...Results.properties });

const Band = Type.Object({ level: RiskLevel, min: Type.Integer(), max: Type.Integer() });
const AppetiteRef = Type.Object({ risk_level: RiskLevel, threshold_value: Type.Integer() });

const End = Type.Object({
  kind: Type.Enum(['created', 'approved', 'current'], { description: 'A creation or approval snapshot, or the live content' }),
  snapshot_id: Nullable(Uuid('The snapshot; null for `current`')),
  bra_id: Uuid('The BRA the snapshot was taken of (the source BRA for the approval snapshot a roll-forward started from)'),
  as_of: Timestamp('When the snapshot was taken, or when the live content was read'),
});

export const BraDiffView = Type.Object(
  {
    bra_id: Uuid('The BRA asked about'),
    from: End,
    to: End,
    empty: Type.Boolean({ description: 'Nothing changed: every list below is empty and both methodology members are null' }),
    scenarios: Type.Object({
      added: Type.Array(ScenarioEntry, { description: 'In `to`, not in `from`' }),
      removed: Type.Array(ScenarioEntry, { description: 'In `from`, not in `to`' }),
      included: Type.Array(ScenarioRef, { description: 'Excluded in `from`, included in `to`' }),
      excluded: Type.Array(ScenarioRef, { description: 'Included in `from`, excluded in `to`' }),
    }),
    ratings: Type.Array(
      Type.Object({
        ...scenarioRef,
        rating_type: Type.Enum(['inherent', 'residual']),
        from: Nullable(RatingScores),
        to: Nullable(RatingScores),
      }),
      {
        description:
          'Scenarios in both whose current rating of a type changed (impact or likelihood, hence score and level; null: unrated). A new justification alone is not a change',
      },
    ),
    controls: Type.Object({
      added: Type.Array(ControlEntry, { description: 'Control links in `to` only (matched by scenario, or BRA-wide, and sub-control)' }),
      removed: Type.Array(ControlEntry, { description: 'Control links in `from` only' }),
      effectiveness_changed: Type.Array(Type.Object({ ...controlRef, from: Results, to: Results }), {
        description: 'Control links in both whose ToD, ToE or total effectiveness differ',
      }),
    }),
    summary: Type.Array(
      Type.Object({
        field: Type.Enum(['total_scenarios', 'assessed_scenarios', 'risks_above_appetite', 'completion_percentage']),
        from: Type.Integer(),
        to: Type.Integer(),
        delta: Type.Integer({ description: '`to` − `from`' }),
      }),
      { description: 'The summary figures that differ' },
    ),
    methodology: Type.Object({
      risk_bands: Nullable(Type.Object({ from: Type.Array(Band), to: Type.Array(Band) }, { description: 'The D6.1 bands, when they differ' })),
      appetite: Nullable(
        Type.Object(
          { from: Nullable(AppetiteRef), to: Nullable(AppetiteRef) },
          { description: 'The applicable appetite (level and threshold), when it differs; null: no appetite applied' },
        ),
      ),
    }),
  },
  {
    description:
      'Lists are ordered by scenario name then catalogue id (ratings: inherent before residual; controls: BRA-wide first, then by scenario, key control and sub-control name)',
    examples: [
      {
        bra_id: '2c9e7a41-8b3d-4f6e-a1c2-7d8e9f0a1b2c',
        from: { kind: 'approved', snapshot_id: '4e1b9c63-0d5f-4a8b-c3e4-9f0a1b2c3d4e', bra_id: '1b8d6f30-7a2c-4e5d-90b1-6c7d8e9f0a1b', as_of: '2026-06-30T14:05:00.000Z' },
        to: { kind: 'current', snapshot_id: null, bra_id: '2c9e7a41-8b3d-4f6e-a1c2-7d8e9f0a1b2c', as_of: '2026-11-28T09:30:00.000Z' },
        empty: false,
        scenarios: { added: [], removed: [], included: [], excluded: [] },
        ratings: [
          {
            risk_scenario_id: '9f5c4d1e-7a6b-4c2d-9e0f-5a6b7c8d9e0f',
            name: 'Cyber intrusion and data theft',
            category: 'External fraud',
            rating_type: 'residual',
            from: { impact_score: 4, likelihood_score: 3, risk_score: 12, risk_level: 'High' },
            to: { impact_score: 3, likelihood_score: 3, risk_score: 9, risk_level: 'Medium' },
          },
        ],
        controls: { added: [], removed: [], effectiveness_changed: [] },
        summary: [{ field: 'risks_above_appetite', from: 2, to: 1, delta: -1 }],
        methodology: { risk_bands: null, appetite: null },
      },
    ],
  },
);
export type BraDiffView = Static<typeof BraDiffView>;

export const braDiffSchema = {
  summary: 'What changed in a BRA between two snapshots',
  description:
    `${BRA_READERS} ` +
    '`from` and `to` name snapshots listed by GET /bras/{bra_id}/snapshots ' +
    "(`to` may be `current`, the live content); after a roll-forward that list holds the approval snapshot of the BRA it started from, so a period's changes " +
    'show against the last approval. Scenarios are matched by catalogue scenario. A snapshot id not in that list (unknown, of another BRA or another enterprise): ' +
    '400 INVALID_REFERENCE naming the parameter. A snapshot diffed with itself is empty.',
  operationId: 'bras.diff',
  tags: ['bras'],
  params: BraParams,
  querystring: BraDiffQuery,
  response: { 200: DataResponse(BraDiffView), ...errorResponses([404]) },
};
