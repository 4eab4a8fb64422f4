import { Type, type Static } from 'typebox';
import { DataResponse, FreeText, Nullable, Timestamp, Uuid, errorResponses } from '../../../platform/http/schemas.js';
import { BraParams, BraStatus } from '../bras.schemas.js';

/** The moves of 3.1 and D6.7. Their bodies are optional: no body is the same as `{}`. */

export const ApproveBody = Type.Object(
  { final_comment: Type.Optional(Nullable(FreeText('Comment of the approver, at most 5,000 characters'))) },
  { additionalProperties: false },
);
export type ApproveBody = Static<typeof ApproveBody>;

export const CancelBody = Type.Object(
  { cancellation_reason: Type.Optional(Nullable(FreeText('Why the BRA is cancelled (recommended), at most 5,000 characters'))) },
  { additionalProperties: false },
);
export type CancelBody = Static<typeof CancelBody>;

export const ReturnBody = Type.Object(
  { comment: Type.Optional(Nullable(FreeText('What the assessor should rework, at most 5,000 characters'))) },
  { additionalProperties: false },
);
export type ReturnBody = Static<typeof ReturnBody>;

export const SubmitBody = Type.Object({}, { additionalProperties: false });

export const ApprovedView = Type.Object({
  id: Uuid(),
  status: BraStatus,
  approved_by: Uuid('The approving client admin'),
  approved_at: Timestamp(),
  final_comment: Nullable(Type.String()),
  snapshot_id: Uuid('The snapshot taken at approval'),
});

export const CancelledView = Type.Object({
  id: Uuid(),
  status: BraStatus,
  cancelled_by: Uuid('The cancelling client admin'),
  cancelled_at: Timestamp(),
  cancellation_reason: Nullable(Type.String()),
});

export const MovedView = Type.Object({ id: Uuid(), status: BraStatus, updated_at: Timestamp() });

const tags = ['bras'];
const action = (statuses: number[]) => errorResponses([404, 409, 413, 415, 422, ...statuses]);

export const approveBraSchema = {
  summary: 'Approve a BRA',
  description:
    'Client admins only. From in_progress or under_review (else 409 INVALID_STATE); every included scenario needs an inherent and a residual ' +
    'rating (else 409 RATINGS_INCOMPLETE with details.missing, the scenario link ids). Takes the `approved` snapshot.',
  operationId: 'bras.approve',
  tags,
  params: BraParams,
  body: ApproveBody,
  response: { 200: DataResponse(ApprovedView), ...action([]) },
};

export const cancelBraSchema = {
  summary: 'Cancel a BRA',
  description: 'Client admins only. Any state but approved and cancelled (else 409 INVALID_STATE); a cancelled BRA cannot be reopened.',
  operationId: 'bras.cancel',
  tags,
  params: BraParams,
  body: CancelBody,
  response: { 200: DataResponse(CancelledView), ...action([]) },
};

export const submitBraSchema = {
  summary: 'Submit a BRA for review',
  description: 'in_progress → under_review (D6.7); client admins or the assessor who created it.',
  operationId: 'bras.submit',
  tags,
  params: BraParams,
  body: SubmitBody,
  response: { 200: DataResponse(MovedView), ...action([]) },
};

export const returnBraSchema = {
  summary: 'Return a BRA to the assessor',
  description: 'under_review → in_progress (D6.7); client admins only.',
  operationId: 'bras.return',
  tags,
  params: BraParams,
  body: ReturnBody,
  response: { 200: DataResponse(MovedView), ...action([]) },
};
