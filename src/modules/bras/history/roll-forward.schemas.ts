import { Type, type Static } from 'typebox';
import { CalendarDate, DataResponse, Name, Nullable, Uuid, errorResponses } from '../../../platform/http/schemas.js';
import { SnapshotAction } from './snapshots.schemas.js';
import { BraDetailView, BraParams } from '../bras.schemas.js';

/** POST /bras/{bra_id}/roll-forward: the next period of an approved BRA. */

const Label = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });

export const RollForwardBody = Type.Object(
  {
    name: Name('Name of the new BRA: unique within the enterprise (case-insensitive); at most 200 characters'),
    period: Label('Free-text label of the new period, at most 200 characters'),
    assessor: Type.Optional(Label("Name of the assessor, at most 200 characters; the approved BRA's when absent")),
    start_date: Type.Optional(Nullable(CalendarDate('When the new assessment starts'))),
  },
  { additionalProperties: false, examples: [{ name: 'Retail Banking fraud risk assessment FY2027', period: 'FY2027', assessor: 'Daniel Okafor', start_date: '2027-01-04' }] },
);
export type RollForwardBody = Static<typeof RollForwardBody>;

export const OpenActionView = Type.Object({
  ...SnapshotAction.properties,
  bra_risk_scenario_id: Nullable(Uuid('The scenario link of the approved BRA it treats, if any')),
  risk_scenario_id: Nullable(Uuid('Its catalogue scenario, if any')),
  new_bra_risk_scenario_id: Nullable(Uuid("The new BRA's link of the same catalogue scenario: where to re-link the action; null for an action of the whole BRA")),
});
export type OpenActionView = Static<typeof OpenActionView>;

export const RolledForwardView = Type.Object({
  ...BraDetailView.properties,
  open_actions: Type.Array(OpenActionView, {
    description: 'The mitigation actions of the approved BRA not completed (nor archived), oldest due first: they stay on it; listed for re-linking',
  }),
});
export type RolledForwardView = Static<typeof RolledForwardView>;

export const rollForwardSchema = {
  summary: 'Roll an approved BRA forward to its next period',
  description:
    'Client admins, and assessors assigned to its entity or unit (D5; the new BRA is theirs). Only an approved BRA (else 409 INVALID_STATE); an archived ' +
    'legal entity or business unit: 400 INVALID_REFERENCE naming the field, as POST /bras. Creates a `draft` BRA in the same entity and unit with the same scenarios (and included flags) ' +
    'and control links, no ratings: each scenario carries its residual rating in the approved BRA as `previous_residual_rating`, a reference only. ' +
    'The new BRA names its source in `rolled_from_bra_id`, and its snapshot list and diff accept the source’s approval snapshot. The answer is the ' +
    'new BRA as GET /bras/{id} gives it, with the open mitigation actions of the approved BRA to re-link. Name taken: 409 CONFLICT. Audited: ' +
    'the creation of the BRA and each scenario and control link added, in one transaction, with its `created` snapshot.',
  operationId: 'bras.roll_forward',
  tags: ['bras'],
  params: BraParams,
  body: RollForwardBody,
  response: { 201: DataResponse(RolledForwardView), ...errorResponses([404, 409, 413, 415, 422]) },
};
