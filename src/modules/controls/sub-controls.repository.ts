import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../platform/db/schema.js';
import type { SubControlsTable, TestOfDesign, TestOfEffectiveness, TotalEffectiveness } from '../../platform/db/tables/controls.js';

/** The sub-control columns the API returns. */
export const SUB_CONTROL_COLUMNS = [
  'id',
  'key_control_id',
  'name',
  'description',
  'tod',
  'toe',
  'total_effectiveness',
  'testing_date',
  'tested_by',
  'evidence_notes',
  'tod_justification',
  'toe_justification',
  'archived',
  'created_at',
  'updated_at',
] as const;

export type SubControlRow = Pick<Selectable<SubControlsTable>, (typeof SUB_CONTROL_COLUMNS)[number]>;
/** With the row version a change compares If-Match with and reports for its answer's ETag. */
export type VersionedSubControlRow = SubControlRow & { row_version: number };

/** The columns a test-result change may set (total_effectiveness only ever from the matrix). */
export type SubControlChanges = Partial<
  Pick<
    SubControlsTable,
    'tod' | 'toe' | 'total_effectiveness' | 'testing_date' | 'tested_by' | 'evidence_notes' | 'tod_justification' | 'toe_justification'
  >
>;

export async function insertSubControl(
  db: Executor,
  enterpriseId: string,
  values: {
    key_control_id: string;
    name: string;
    description: string | null;
    tod: TestOfDesign | null;
    toe: TestOfEffectiveness | null;
    total_effectiveness: TotalEffectiveness | null;
    created_by: string;
  },
): Promise<SubControlRow> {
  return db
    .insertInto('sub_controls')
    .values({ enterprise_id: enterpriseId, ...values })
    .returning(SUB_CONTROL_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** The row locked for the rest of the transaction: tod and toe change one request after another. */
export async function lockSubControl(db: Executor, enterpriseId: string, id: string): Promise<VersionedSubControlRow | undefined> {
  return db
    .selectFrom('sub_controls')
    .select([...SUB_CONTROL_COLUMNS, 'row_version'])
    .where('enterprise_id', '=', enterpriseId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateSubControl(db: Executor, enterpriseId: string, id: string, changes: SubControlChanges): Promise<VersionedSubControlRow> {
  return db
    .updateTable('sub_controls')
    .set({ ...changes, updated_at: sql<Date>`now()` })
    .where('enterprise_id', '=', enterpriseId)
    .where('id', '=', id)
    .returning([...SUB_CONTROL_COLUMNS, 'row_version'])
    .executeTakeFirstOrThrow();
}

/** The archived sub-control's new row version. */
export async function archiveSubControl(db: Executor, enterpriseId: string, id: string): Promise<number> {
  const row = await db
    .updateTable('sub_controls')
    .set({ archived: true, archived_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('enterprise_id', '=', enterpriseId)
    .where('id', '=', id)
    .returning('row_version')
    .executeTakeFirstOrThrow();
  return row.row_version;
}

/** Archives the still-active sub-controls of a key control; returns their ids. */
export async function archiveSubControlsOf(db: Executor, enterpriseId: string, keyControlId: string): Promise<string[]> {
  const rows = await db
    .updateTable('sub_controls')
    .set({ archived: true, archived_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('enterprise_id', '=', enterpriseId)
    .where('key_control_id', '=', keyControlId)
    .where('archived', '=', false)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

export interface SubControlFilter {
  keyControlId?: string | undefined;
  includeArchived: boolean;
}

/** Newest first (D2.5). The interface lists sub-controls without pagination. */
export async function listSubControls(db: Executor, enterpriseId: string, filter: SubControlFilter): Promise<SubControlRow[]> {
  let query = db.selectFrom('sub_controls').select(SUB_CONTROL_COLUMNS).where('enterprise_id', '=', enterpriseId);
  if (filter.keyControlId !== undefined) query = query.where('key_control_id', '=', filter.keyControlId);
  if (!filter.includeArchived) query = query.where('archived', '=', false);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/**
 * Whether a key control exists here and is archived. `share` locks it against a concurrent archive until
 * the transaction ends, so no sub-control is created under a key control that is being archived.
 */
export async function findKeyControlState(
  db: Executor,
  enterpriseId: string,
  keyControlId: string,
  share = false,
): Promise<{ id: string; archived: boolean } | undefined> {
  return db
    .selectFrom('key_controls')
    .select(['id', 'archived'])
    .where('enterprise_id', '=', enterpriseId)
    .where('id', '=', keyControlId)
    .$if(share, (q) => q.forShare())
    .executeTakeFirst();
}

/** A sub-control of the enterprise's library, by id. Also how other modules look one up (a BRA's control links). */
export async function findSubControl(db: Executor, enterpriseId: string, subControlId: string) {
  return db
    .selectFrom('sub_controls')
    .select(['id', 'name', 'archived'])
    .where('enterprise_id', '=', enterpriseId)
    .where('id', '=', subControlId)
    .executeTakeFirst();
}
