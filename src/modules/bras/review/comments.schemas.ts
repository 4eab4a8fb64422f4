import { Type, type Static } from 'typebox';
import { DataResponse, Nullable, PageResponse, PaginationQuery, Timestamp, Uuid, errorResponses } from '../../../platform/http/schemas.js';
import { BraParams, CommentVerdict, UserRef } from '../bras.schemas.js';

/** Review comments of a BRA (issue 35): appended, never edited or deleted. */

const EXAMPLE = {
  id: '0f3c9a7e-2b4d-4c6e-8a1f-3b5d7e9f1a2c',
  bra_id: '7d3a2b9c-5e4f-4a0b-9c8d-3e4f5a6b7c8d',
  scenario_id: '9d2f6a3b-1c4e-4b8a-8e7f-5a6b7c8d9e01',
  body: 'The residual likelihood of card-not-present fraud assumes the 3-D Secure rollout is complete; it is not yet in two markets.',
  verdict: 'changes_requested',
  author_id: '2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e',
  author_user: { id: '2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e', full_name: 'Rafael Ortiz' },
  created_at: '2026-06-24T09:12:00.000Z',
};

export const CommentView = Type.Object(
  {
    id: Uuid('The comment'),
    bra_id: Uuid('The BRA'),
    scenario_id: Nullable(Uuid('The scenario link it is about (the `id` of a scenario of the get-BRA); null for the whole BRA')),
    body: Type.String({ description: 'What was said' }),
    verdict: Nullable(CommentVerdict),
    author_id: Uuid('Who wrote it'),
    author_user: UserRef,
    created_at: Timestamp(),
  },
  { examples: [EXAMPLE] },
);
export type CommentView = Static<typeof CommentView>;

export const AddCommentBody = Type.Object(
  {
    body: Type.String({ minLength: 1, maxLength: 5000, description: 'The comment, 1 to 5,000 characters' }),
    scenario_id: Type.Optional(
      Nullable(Uuid('A scenario link of this BRA (the `id` of a scenario of the get-BRA) the comment is about; 400 INVALID_REFERENCE otherwise')),
    ),
    verdict: Type.Optional(
      Nullable(
        Type.Enum(['recommend_approval', 'changes_requested'], {
          description: "Client admins' and reviewers' opinion of the BRA as it stands (an assessor's is 403); the latest per user shows on the get-BRA",
        }),
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ body: EXAMPLE.body, scenario_id: EXAMPLE.scenario_id, verdict: 'changes_requested' }],
  },
);
export type AddCommentBody = Static<typeof AddCommentBody>;

export const ListCommentsQuery = Type.Object({ ...PaginationQuery });
export type ListCommentsQuery = Static<typeof ListCommentsQuery>;

const tags = ['bras'];
const WHO = 'Client admins, and assessors and reviewers assigned to the BRA (D5).';

export const listCommentsSchema = {
  summary: "List a BRA's review comments",
  description: `Readable by ${WHO} Oldest first, paginated, each with its author's name.`,
  operationId: 'bras.comment.list',
  tags,
  params: BraParams,
  querystring: ListCommentsQuery,
  response: { 200: PageResponse(CommentView), ...errorResponses([404]) },
};

export const addCommentSchema = {
  summary: 'Comment on a BRA',
  description:
    `${WHO} Only while the BRA is in progress or under review (else 409 INVALID_STATE). ` +
    'A verdict (recommend_approval, changes_requested) only from client admins and reviewers (403 for an assessor). ' +
    'Comments are never edited or deleted; each is audited (create of a bra_comment). A comment changes nothing else of the BRA (nor its ETag).',
  operationId: 'bras.comment.create',
  tags,
  params: BraParams,
  body: AddCommentBody,
  response: { 201: DataResponse(CommentView), ...errorResponses([404, 409, 413, 415, 422]) },
};
