import { Type, type Static } from 'typebox';
import { Abilities, CalendarDate, DataResponse, FreeText, MessageOnly, Name, Nullable, PageResponse, PaginationQuery, Timestamp, UserRef, Uuid, errorResponses } from '../../platform/http/schemas.js';

const ActionStatus = Type.Enum(['created', 'in_progress', 'completed'], {
  description: 'created, in_progress or completed; every move between them is allowed (D7.3)',
});
const ActionPriority = Type.Enum(['low', 'medium', 'high', 'critical'], { description: 'How urgent the action is' });

const ActionText = () =>
  Type.String({ minLength: 1, maxLength: 5000, description: 'Description of the action; at most 5,000 characters' });
const Owner = () => Name('Responsible person or team; at most 200 characters');
const ActionType = () => Name('Category of the action (free text); at most 200 characters');
const OwnerUser = () =>
  Nullable(
    Uuid(
      'The member the action is assigned to (beside the free-text owner), told of it and reminded of its due date: an ' +
        "active member of the enterprise who may read the action (a client admin, or assigned to its BRA's entity or unit; " +
        'for an unlinked action, its creator); else 422. null: nobody',
    ),
  );
const DueDate = () => CalendarDate('When the action is due (YYYY-MM-DD); overdue from the next day (UTC) until completed');

export const ActionView = Type.Object({
  id: Uuid(),
  action: Type.String({ description: 'Description of the action' }),
  owner: Type.String({ description: 'Responsible person or team' }),
  owner_user_id: Nullable(Uuid('The member the action is assigned to; null when none')),
  owner_user: Nullable(UserRef),
  status: ActionStatus,
  priority: ActionPriority,
  action_type: Type.String({ description: 'Category (free text)' }),
  due_date: CalendarDate('When the action is due'),
  bra_id: Nullable(Uuid('The BRA the action belongs to; null for an unlinked action')),
  bra_risk_scenario_id: Nullable(Uuid("The BRA's scenario link the action addresses; null when none")),
  is_overdue: Type.Boolean({
    description: 'due_date before today (UTC) and status not completed (D7.3); computed at every read, never stored',
  }),
  archived: Type.Boolean({ description: 'Set by archiving; archived actions are listed only with archived=true' }),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  bra: Nullable(Type.Object({ name: Type.String({ description: "The BRA's name" }) }, { description: 'null when unlinked' })),
  risk_scenario: Nullable(
    Type.Object(
      { name: Type.String({ description: "The catalogue scenario's name" }) },
      { description: 'The scenario of the linked BRA scenario link; null when none' },
    ),
  ),
});
export type ActionView = Static<typeof ActionView>;

// Unknown query parameters are ignored (only bodies are strict, D2.3); a bad value is 400 (D2.2).
export const ListActionsQuery = Type.Object({
  bra_id: Type.Optional(Uuid('Only actions of this BRA; an id that is no BRA of your enterprise is 400 INVALID_REFERENCE')),
  status: Type.Optional(ActionStatus),
  priority: Type.Optional(ActionPriority),
  owner_user_id: Type.Optional(
    Type.Union([Uuid(), Type.Literal('me')], {
      description: 'Only actions assigned to this member; `me`: to the caller. An id that is no member of your enterprise is 400 INVALID_REFERENCE',
    }),
  ),
  overdue_only: Type.Optional(
    Type.Boolean({ description: 'true: only overdue actions (D7.3); false or absent: no filter on overdue' }),
  ),
  archived: Type.Optional(
    Type.Boolean({ default: false, description: 'true: archived actions are listed too; false (default): they are left out' }),
  ),
  ...PaginationQuery,
});
export type ListActionsQuery = Static<typeof ListActionsQuery>;

export const CreateActionBody = Type.Object(
  {
    action: ActionText(),
    owner: Owner(),
    owner_user_id: Type.Optional(OwnerUser()),
    priority: ActionPriority,
    action_type: ActionType(),
    due_date: DueDate(),
    bra_id: Type.Optional(Nullable(Uuid("A BRA of the caller's enterprise (an assessor's: of an assigned entity)"))),
    bra_risk_scenario_id: Type.Optional(
      Nullable(Uuid('A scenario link of that BRA; requires bra_id (else 400 INVALID_REFERENCE, D7.3)')),
    ),
  },
  { additionalProperties: false },
);
export type CreateActionBody = Static<typeof CreateActionBody>;

/** D7.3: the fields PATCH and bulk update accept; the links (bra_id, bra_risk_scenario_id) are fixed at creation. */
const ActionChanges = {
  action: Type.Optional(ActionText()),
  owner: Type.Optional(Owner()),
  status: Type.Optional(ActionStatus),
  priority: Type.Optional(ActionPriority),
  action_type: Type.Optional(ActionType()),
  due_date: Type.Optional(DueDate()),
};

/** PATCH alone assigns an action to a member: each assignment is checked against the action's own read rule. */
const OneActionChanges = { ...ActionChanges, owner_user_id: Type.Optional(OwnerUser()) };

export const UpdateActionBody = Type.Object(OneActionChanges, {
  additionalProperties: false,
  minProperties: 1,
  description: 'At least one field to change',
});
export type UpdateActionBody = Static<typeof UpdateActionBody>;

export const ActionParams = Type.Object({ action_id: Uuid('The mitigation action') });

export const ActionChangeView = Type.Object({
  id: Uuid(),
  ...OneActionChanges,
  is_overdue: Type.Boolean({ description: 'After the change (D7.3)' }),
  updated_at: Timestamp(),
});
export type ActionChangeView = Static<typeof ActionChangeView>;

export const MAX_BULK_IDS = 100;

export const BulkUpdateBody = Type.Object(
  {
    action_ids: Type.Array(Uuid(), {
      minItems: 1,
      maxItems: MAX_BULK_IDS,
      uniqueItems: true,
      description: '1 to 100 distinct action ids; all are changed or none (D7.3)',
    }),
    updates: Type.Object(ActionChanges, {
      additionalProperties: false,
      minProperties: 1,
      description: 'The fields to set on every named action (at least one)',
    }),
  },
  { additionalProperties: false },
);
export type BulkUpdateBody = Static<typeof BulkUpdateBody>;

export const BulkUpdateResult = Type.Object({
  updated_count: Type.Integer({ description: 'How many actions were changed' }),
  updated_ids: Type.Array(Uuid(), { description: 'Their ids, in the order given' }),
});

const tags = ['mitigation actions'];
const scope =
  'Client admins: every action of the enterprise; assessors: actions of BRAs of their assigned entities and the ' +
  'unlinked actions they created; reviewers: actions of BRAs of their assigned entities (D5).';

/** A listed action, with what the caller may do to it now. */
export const ActionListItem = Type.Object({
  ...ActionView.properties,
  abilities: Abilities({ update: 'Change it (PATCH): client admins and assessors, while not archived', archive: 'Archive it: the same' }),
});

export const listActionsSchema = {
  summary: 'List mitigation actions',
  description: `${scope} Newest first (D2.5). Filters combine (and). Super admins: 403.`,
  operationId: 'actions.list',
  tags,
  querystring: ListActionsQuery,
  response: { 200: PageResponse(ActionListItem), ...errorResponses([]) },
};

export const createActionSchema = {
  summary: 'Create a mitigation action',
  description:
    'Client admins and assessors (within their scope, D5); status starts at created. A bra_id not of the ' +
    'enterprise, a bra_risk_scenario_id without its bra_id or of another BRA: 400 INVALID_REFERENCE (D7.3).',
  operationId: 'actions.create',
  tags,
  body: CreateActionBody,
  response: { 201: DataResponse(ActionView), ...errorResponses([413, 415, 422]) },
};

export const updateActionSchema = {
  summary: 'Change a mitigation action',
  description:
    'Client admins and assessors within their scope (D5). Answers the id, the fields sent, is_overdue and ' +
    'updated_at. An archived action: 409 INVALID_STATE (D7.3).',
  operationId: 'actions.update',
  tags,
  params: ActionParams,
  body: UpdateActionBody,
  response: { 200: DataResponse(ActionChangeView), ...errorResponses([404, 409, 413, 415, 422]) },
};

export const bulkUpdateActionsSchema = {
  summary: 'Change several mitigation actions at once',
  description:
    'All or nothing, in one transaction (D7.3): an id that is unknown or outside the caller\'s scope answers 404, ' +
    'an archived one 409 INVALID_STATE, and nothing changes. One audit entry per action.',
  operationId: 'actions.bulk_update',
  tags,
  body: BulkUpdateBody,
  response: { 200: DataResponse(BulkUpdateResult), ...errorResponses([404, 409, 413, 415, 422]) },
};

export const archiveActionSchema = {
  summary: 'Archive a mitigation action',
  description:
    'Client admins and assessors within their scope (D5). Idempotent: archiving an archived action answers 200 ' +
    'and changes nothing. Archived actions leave the list unless archived=true, and cannot be changed.',
  operationId: 'actions.archive',
  tags,
  params: ActionParams,
  response: { 200: MessageOnly, ...errorResponses([404]) },
};
