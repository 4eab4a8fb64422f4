import { Type, type Static } from 'typebox';
import {
  CalendarDate,
  DataResponse,
  FreeText,
  IdParams,
  Nullable,
  PageResponse,
  PaginationQuery,
  Timestamp,
  Uuid,
  UserRef,
  errorResponses,
} from '../../../platform/http/schemas.js';

/** Risk acceptance (issue 48): a client admin's formal, expiring acceptance of a scenario above appetite. */

const EXAMPLE = {
  id: '3f8a2c1d-6b4e-4d7f-9a0b-2c3d4e5f6a7b',
  bra_id: '7d3a2b9c-5e4f-4a0b-9c8d-3e4f5a6b7c8d',
  bra_name: 'Retail Banking BRA FY2026',
  scenario_id: '9d2f6a3b-1c4e-4b8a-8e7f-5a6b7c8d9e01',
  risk_scenario_id: '4c8e1f2a-7b3d-4e5f-9a0b-1c2d3e4f5a6b',
  scenario_name: 'Card-not-present fraud',
  rationale: 'The 3-D Secure rollout completes in the two remaining markets by Q2; the residual exposure is within the fraud reserve.',
  conditions: 'Monthly fraud-loss report to the risk committee until the rollout completes.',
  mitigation_action_id: '6e1b3c5d-7f9a-4b2c-8d4e-0f1a2b3c4d5e',
  expires_on: '2027-06-30',
  accepted_residual_score: 15,
  accepted_threshold: 12,
  accepted_by: '2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e',
  accepted_by_user: { id: '2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e', full_name: 'Olivia Hart' },
  accepted_at: '2026-12-01T10:15:00.000Z',
  renews_id: null,
  status: 'active',
  in_force: true,
  ended_at: null,
  ended_by: null,
  end_reason: null,
};

export const AcceptanceStatus = Type.Enum(['active', 'renewed', 'revoked', 'expired', 'ended'], {
  description:
    'active: not ended (in force through expires_on); renewed: replaced by a renewal; revoked: withdrawn by a client admin; ' +
    'expired: past expires_on; ended: a new residual rating above the accepted one ended it',
});

export const RiskAcceptanceView = Type.Object(
  {
    id: Uuid('The acceptance'),
    bra_id: Uuid('The BRA'),
    bra_name: Type.String(),
    scenario_id: Uuid('The scenario link accepted (the `id` of a scenario of the get-BRA)'),
    risk_scenario_id: Uuid('The catalogue scenario'),
    scenario_name: Type.String(),
    rationale: Type.String({ description: 'Why the risk is accepted' }),
    conditions: Nullable(Type.String({ description: 'What the acceptance is conditional on' })),
    mitigation_action_id: Nullable(Uuid('A mitigation action the acceptance relies on')),
    expires_on: CalendarDate('The last day the acceptance holds (UTC); the risk is unaccepted again the next day'),
    accepted_residual_score: Type.Integer({ description: 'The residual score accepted: a new residual rating above it ends the acceptance' }),
    accepted_threshold: Type.Integer({ description: 'The applicable appetite threshold it was above when accepted' }),
    accepted_by: Uuid('The client admin who accepted it'),
    accepted_by_user: UserRef,
    accepted_at: Timestamp(),
    renews_id: Nullable(Uuid('The acceptance this one renews')),
    status: AcceptanceStatus,
    in_force: Type.Boolean({ description: 'Active and not past expires_on today (UTC)' }),
    ended_at: Nullable(Timestamp('When it was renewed, revoked, expired or ended')),
    ended_by: Nullable(Uuid('Who renewed or revoked it; null when the service ended it (expiry, a higher rating)')),
    end_reason: Nullable(Type.String({ description: 'Why it was revoked, or what ended it' })),
  },
  { examples: [EXAMPLE] },
);
export type RiskAcceptanceView = Static<typeof RiskAcceptanceView>;

export const AcceptRiskBody = Type.Object(
  {
    rationale: Type.String({ minLength: 1, maxLength: 5000, description: 'Why the risk is accepted, 1 to 5,000 characters' }),
    expires_on: CalendarDate('The last day it holds: after today and at most RISK_ACCEPTANCE_MAX_DAYS (default 365) days ahead, else 422'),
    conditions: Type.Optional(Nullable(FreeText('What the acceptance is conditional on, at most 5,000 characters; empty: none'))),
    mitigation_action_id: Type.Optional(Nullable(Uuid('A mitigation action of the enterprise the acceptance relies on (not archived); else 400 INVALID_REFERENCE'))),
  },
  {
    additionalProperties: false,
    examples: [{ rationale: EXAMPLE.rationale, expires_on: EXAMPLE.expires_on, conditions: EXAMPLE.conditions, mitigation_action_id: EXAMPLE.mitigation_action_id }],
  },
);
export type AcceptRiskBody = Static<typeof AcceptRiskBody>;

export const RevokeAcceptanceBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 5000, description: 'Why the acceptance is withdrawn, 1 to 5,000 characters' }) },
  { additionalProperties: false, examples: [{ reason: 'The fraud reserve was reduced; the risk goes back to the committee.' }] },
);
export type RevokeAcceptanceBody = Static<typeof RevokeAcceptanceBody>;

export const ListAcceptancesQuery = Type.Object({
  ...PaginationQuery,
  status: Type.Optional(AcceptanceStatus),
  in_force: Type.Optional(Type.Boolean({ description: 'Only those in force today (true), or only those not (false)' })),
  bra_id: Type.Optional(Uuid('Only this BRA’s (400 INVALID_REFERENCE when it names no BRA of the enterprise)')),
  expiring_within_days: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 3650, description: 'Only those in force whose last day is at most this many days ahead; soonest first' }),
  ),
});
export type ListAcceptancesQuery = Static<typeof ListAcceptancesQuery>;

export const ScenarioAcceptanceParams = Type.Object({ bra_id: Uuid('The BRA'), scenario_id: Uuid('The scenario link (the `id` of a scenario of the get-BRA)') });
export const AcceptanceParams = IdParams('acceptance_id');

/** Under the BRAs' tag: an acceptance is a decision on a BRA's scenario. */
const tags = ['bras'];
const READERS = 'Readable by client admins, and by assessors and reviewers assigned to the BRA’s entity or unit (D5).';

/** What the three changes share: their tag, what they answer with and the refusals they may meet. */
const AcceptanceAnswer = DataResponse(RiskAcceptanceView);
const CHANGE_REFUSALS = errorResponses([404, 409, 413, 415, 422]);

export const acceptRiskSchema = {
  summary: 'Accept a risk above appetite',
  description:
    'Client admins only (403 otherwise). The BRA must be in progress, under review or approved (else 409 INVALID_STATE), the scenario included, ' +
    'rated and its residual score above the applicable appetite (on an approved BRA, the appetite its approval pinned; else 409 INVALID_STATE). ' +
    'One active acceptance per scenario: 409 CONFLICT when one exists (renew it instead). Audited (create of a risk_acceptance) and announced ' +
    '(`risk.accepted`) in the same transaction. The BRA answer, the register and the dashboard show the risk as accepted until expires_on.',
  operationId: 'risk_acceptances.create',
  tags,
  params: ScenarioAcceptanceParams,
  body: AcceptRiskBody,
  response: { 201: AcceptanceAnswer, ...CHANGE_REFUSALS },
};

export const renewAcceptanceSchema = {
  ...acceptRiskSchema,
  summary: 'Renew a risk acceptance',
  description:
    'Client admins only. Renews an active acceptance (in force or lapsed but not yet marked) or an expired one, with new terms: a new acceptance ' +
    'replaces it (the old one ends as `renewed`), under the same rules as accepting (state, above appetite, expiry). A renewed, revoked or ended ' +
    'acceptance, or a scenario that has another active acceptance, is 409. Audited (create of the new risk_acceptance) and announced (`risk.accepted`).',
  operationId: 'risk_acceptances.renew',
  params: AcceptanceParams,
};

export const revokeAcceptanceSchema = {
  summary: 'Revoke a risk acceptance',
  description:
    'Client admins only. Ends an active acceptance now, with a reason; the risk is unaccepted again. Anything but an active acceptance is 409 ' +
    'INVALID_STATE. Audited (update of the risk_acceptance, with the reason).',
  operationId: 'risk_acceptances.revoke',
  tags,
  params: AcceptanceParams,
  body: RevokeAcceptanceBody,
  response: { 200: AcceptanceAnswer, ...CHANGE_REFUSALS },
};

export const listAcceptancesSchema = {
  summary: 'List risk acceptances',
  description: `${READERS} Those of the BRAs the caller reads, newest first (soonest expiry first with expiring_within_days), paginated.`,
  operationId: 'risk_acceptances.list',
  tags,
  querystring: ListAcceptancesQuery,
  response: { 200: PageResponse(RiskAcceptanceView), ...errorResponses([]) },
};

export const getAcceptanceSchema = {
  summary: 'Get a risk acceptance',
  description: `${READERS} Another enterprise’s, or an unknown id, is 404.`,
  operationId: 'risk_acceptances.get',
  tags,
  params: AcceptanceParams,
  response: { 200: AcceptanceAnswer, ...errorResponses([404]) },
};
