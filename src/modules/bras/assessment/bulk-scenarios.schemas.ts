import { Type, type Static } from 'typebox';
import { Message, Uuid, errorResponses } from '../../../platform/http/schemas.js';
import { BraParams, ScenarioView } from '../bras.schemas.js';

/** Many catalogue scenarios added to a BRA at once (issue 35): all or none. */

export const MAX_BULK_SCENARIOS = 100;

export const AddScenariosBody = Type.Object(
  {
    risk_scenario_ids: Type.Array(Uuid('A scenario of the enterprise catalogue, not archived, not yet in this BRA'), {
      minItems: 1,
      maxItems: MAX_BULK_SCENARIOS,
      uniqueItems: true,
      description: `1 to ${MAX_BULK_SCENARIOS} distinct catalogue scenarios, added in this order`,
    }),
    included: Type.Optional(Type.Boolean({ default: true, description: 'Whether they are assessed (default true), for all of them' })),
  },
  {
    additionalProperties: false,
    examples: [{ risk_scenario_ids: ['4c8e1f2a-7b3d-4e5f-9a0b-1c2d3e4f5a6b', '5d9f2a3b-8c4e-4f6a-8b1c-2d3e4f5a6b7c'], included: true }],
  },
);
export type AddScenariosBody = Static<typeof AddScenariosBody>;

export const addScenariosSchema = {
  summary: 'Add many catalogue scenarios to a BRA',
  description:
    'The same rules as adding one (client admins, or the assessor who created the BRA while still assigned; only while draft or in progress, ' +
    'else 409 INVALID_STATE; a draft moves to in_progress), for all of them or none: an id that is unknown, of another enterprise or archived is ' +
    '400 INVALID_REFERENCE (details.risk_scenario_ids names them), one already in the BRA 409 CONFLICT, and then nothing is added. ' +
    'One audit entry per scenario added. Takes an Idempotency-Key.',
  operationId: 'bras.scenario.bulk_add',
  tags: ['bras'],
  params: BraParams,
  body: AddScenariosBody,
  response: {
    201: Type.Object({ data: Type.Array(ScenarioView, { description: 'The scenario links added, in the order asked' }), message: Message }),
    ...errorResponses([404, 409, 413, 415, 422]),
  },
};
