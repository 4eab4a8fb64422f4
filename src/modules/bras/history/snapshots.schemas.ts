import { Type, type Static } from 'typebox';
import { ListResponse, Message, Nullable, Timestamp, Uuid, errorResponses } from '../../../platform/http/schemas.js';
import { BRA_READERS, BraDetailView, BraParams, Methodology, UserRef } from '../bras.schemas.js';

/** A BRA's snapshots (D6.10): what they hold, and the two reads. */

export const SnapshotSummaryView = Type.Object({
  id: Uuid(),
  bra_id: Uuid('The BRA it was taken of: this one, or for the approval snapshot a roll-forward started from, the BRA it was rolled from'),
  kind: Type.Enum(['created', 'approved'], { description: 'Taken at creation or at approval' }),
  created_at: Timestamp(),
  created_by: Nullable(Uuid('Who created or approved the BRA')),
  created_by_user: Nullable(UserRef),
});

export const SnapshotAction = Type.Object({
  id: Uuid(),
  action: Type.String(),
  owner: Type.String(),
  status: Type.Enum(['created', 'in_progress', 'completed']),
  priority: Type.Enum(['low', 'medium', 'high', 'critical']),
  action_type: Type.String(),
  due_date: Type.String({ format: 'date' }),
  bra_risk_scenario_id: Nullable(Uuid('The scenario link it treats, if any')),
});
export type SnapshotAction = Static<typeof SnapshotAction>;

export const SnapshotView = Type.Object({
  ...SnapshotSummaryView.properties,
  content: BraDetailView,
  methodology: Methodology,
  actions: Nullable(
    Type.Array(SnapshotAction, {
      description: "The BRA's mitigation actions (not archived) when the snapshot was taken, oldest due first; null in snapshots taken before actions were pinned",
    }),
  ),
});

export const SnapshotParams = Type.Object({ bra_id: Uuid('The BRA'), snapshot_id: Uuid('A snapshot of that BRA') });

const tags = ['bras'];
const reads = errorResponses([404]);

export const listSnapshotsSchema = {
  summary: "List a BRA's snapshots",
  description: `${BRA_READERS} Its creation and approval snapshots and, for a BRA rolled forward, the approval snapshot of the BRA it started from (with that BRA's id); newest first.`,
  operationId: 'bras.snapshot.list',
  tags,
  params: BraParams,
  response: { 200: ListResponse(SnapshotSummaryView), ...reads },
};

export const getSnapshotSchema = {
  summary: 'Get a snapshot of a BRA',
  description: `${BRA_READERS} The get-BRA data as it was, and the methodology (risk bands, applicable appetite) it was computed under. Any snapshot the list gives, the inherited approval snapshot of a roll-forward included.`,
  operationId: 'bras.snapshot.get',
  tags,
  params: SnapshotParams,
  response: { 200: Type.Object({ data: SnapshotView, message: Type.Optional(Message) }), ...reads },
};
