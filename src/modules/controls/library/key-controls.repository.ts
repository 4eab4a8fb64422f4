import { sql, type Selectable } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { insertInChunks } from '../../../platform/db/chunked-insert.js';
import { lockOwnRow, updateOwnRow } from '../../../platform/db/own-rows.js';
import { countRows, newestFirst } from '../../../platform/db/page-queries.js';
import type { Executor } from '../../../platform/db/schema.js';
import type { KeyControlsTable, SubControlsTable } from '../../../platform/db/tables/controls.js';

/** The key-control columns the API returns. */
export const KEY_CONTROL_COLUMNS = ['id', 'name', 'description', 'archived', 'created_at', 'updated_at'] as const;

export type KeyControlRow = Pick<Selectable<KeyControlsTable>, (typeof KEY_CONTROL_COLUMNS)[number]>;
/** With the row version a change compares If-Match with and reports for its answer's ETag. */
export type VersionedKeyControlRow = KeyControlRow & { row_version: number };
const VERSIONED_COLUMNS = [...KEY_CONTROL_COLUMNS, 'row_version'] as const;

/** What archiving a control sets (a key control, a sub-control), at the transaction's time. */
export const ARCHIVED_NOW = { archived: true, archived_at: sql<Date>`now()`, updated_at: sql<Date>`now()` };

export async function insertKeyControl(
  db: Executor,
  enterpriseId: string,
  values: { name: string; description: string | null; created_by: string },
): Promise<KeyControlRow> {
  return db
    .insertInto('key_controls')
    .values({ enterprise_id: enterpriseId, ...values })
    .returning(KEY_CONTROL_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Many key controls in multi-row INSERTs (an import), returned in the order given. */
export async function insertKeyControls(
  db: Executor,
  enterpriseId: string,
  values: ReadonlyArray<{ name: string; description: string | null; created_by: string }>,
): Promise<KeyControlRow[]> {
  return insertInChunks(values, (chunk) =>
    db
      .insertInto('key_controls')
      .values(chunk.map((value) => ({ enterprise_id: enterpriseId, ...value })))
      .returning(KEY_CONTROL_COLUMNS)
      .execute(),
  );
}

/** The row locked for the rest of the transaction, so concurrent changes apply one after another. */
export async function lockKeyControl(db: Executor, enterpriseId: string, id: string): Promise<VersionedKeyControlRow | undefined> {
  return lockOwnRow(db, 'key_controls', enterpriseId, id, VERSIONED_COLUMNS);
}

export async function updateKeyControl(
  db: Executor,
  enterpriseId: string,
  id: string,
  changes: { name?: string; description?: string | null },
): Promise<VersionedKeyControlRow> {
  return updateOwnRow(db, 'key_controls', enterpriseId, id, { ...changes, updated_at: sql<Date>`now()` }, VERSIONED_COLUMNS);
}

/** The archived key control's new row version. */
export async function archiveKeyControl(db: Executor, enterpriseId: string, id: string): Promise<number> {
  const row = await updateOwnRow(db, 'key_controls', enterpriseId, id, ARCHIVED_NOW, ['row_version']);
  return row.row_version;
}

export type NestedSubControlRow = Pick<Selectable<SubControlsTable>, 'id' | 'name' | 'tod' | 'toe' | 'total_effectiveness' | 'archived'>;

/** The count and the page come from this one filtered query, so totals and rows always agree. */
function filtered(db: Executor, enterpriseId: string, includeArchived: boolean) {
  let query = db.selectFrom('key_controls as kc').where('kc.enterprise_id', '=', enterpriseId);
  if (!includeArchived) query = query.where('kc.archived', '=', false);
  return query;
}

export async function countKeyControls(db: Executor, enterpriseId: string, includeArchived: boolean): Promise<number> {
  return countRows(filtered(db, enterpriseId, includeArchived));
}

/**
 * One query for the page: each key control with its sub-controls aggregated as a JSON array (no N+1),
 * newest first at both levels (D2.5). Archived sub-controls only when archived items are asked for.
 */
export async function listKeyControls(db: Executor, enterpriseId: string, includeArchived: boolean, limit: number, offset: number) {
  const page = filtered(db, enterpriseId, includeArchived).select((eb) => [
    'kc.id',
    'kc.name',
    'kc.description',
    'kc.archived',
    'kc.created_at',
    'kc.updated_at',
    jsonArrayFrom(
      eb
        .selectFrom('sub_controls as sc')
        .select(['sc.id', 'sc.name', 'sc.tod', 'sc.toe', 'sc.total_effectiveness', 'sc.archived'])
        .where('sc.enterprise_id', '=', enterpriseId)
        .whereRef('sc.key_control_id', '=', 'kc.id')
        .$if(!includeArchived, (q) => q.where('sc.archived', '=', false))
        .orderBy('sc.created_at', 'desc')
        .orderBy('sc.id', 'desc'),
    )
      // The text column toe stays text in JSON ('1'..'5'); Kysely's JSON typing would call it a number.
      .$castTo<NestedSubControlRow[]>()
      .as('sub_controls'),
  ]);
  return newestFirst(page, limit, offset, 'kc').execute();
}
