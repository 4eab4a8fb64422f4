import { sql, type Selectable } from 'kysely';
import { insertInChunks } from '../../../platform/db/chunked-insert.js';
import { containsPattern } from '../../../platform/db/contains-pattern.js';
import { findOwnRow, lockOwnRow, updateOwnRow } from '../../../platform/db/own-rows.js';
import type { Executor } from '../../../platform/db/schema.js';
import type { KeysetPosition } from '../../../platform/http/keyset-cursor.js';
import type { SubControlsTable, TestOfDesign, TestOfEffectiveness, TotalEffectiveness } from '../../../platform/db/tables/controls.js';
import { subControlsInScope, type CountScope } from '../effectiveness/effectiveness.repository.js';
import { TEST_RESULT_COLUMNS, type TestResultColumn } from '../test-result.js';
import { ARCHIVED_NOW } from './key-controls.repository.js';

/** The sub-control columns the API returns. */
export const SUB_CONTROL_COLUMNS = [
  'id',
  'key_control_id',
  'name',
  'description',
  ...TEST_RESULT_COLUMNS,
  'testing_frequency',
  'next_test_due',
  'archived',
  'created_at',
  'updated_at',
] as const;

export type SubControlRow = Pick<Selectable<SubControlsTable>, (typeof SUB_CONTROL_COLUMNS)[number]>;
/** With the row version a change compares If-Match with and reports for its answer's ETag. */
export type VersionedSubControlRow = SubControlRow & { row_version: number };
const VERSIONED_COLUMNS = [...SUB_CONTROL_COLUMNS, 'row_version'] as const;

/** The columns a PATCH may set: the test result (total_effectiveness only ever from the matrix) and the schedule. */
export type SubControlChanges = Partial<Pick<SubControlsTable, TestResultColumn | 'testing_frequency'>>;

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
  } & Omit<SubControlChanges, 'tod' | 'toe' | 'total_effectiveness'>,
): Promise<SubControlRow> {
  return db
    .insertInto('sub_controls')
    .values({ enterprise_id: enterpriseId, ...values })
    .returning(SUB_CONTROL_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** One sub-control of the enterprise with the columns the API returns. */
export async function findSubControlRow(db: Executor, enterpriseId: string, id: string): Promise<VersionedSubControlRow | undefined> {
  return findOwnRow(db, 'sub_controls', enterpriseId, id, VERSIONED_COLUMNS);
}

export type NewSubControl = Parameters<typeof insertSubControl>[2];

/** Many sub-controls in multi-row INSERTs (an import), returned in the order given. */
export async function insertSubControls(db: Executor, enterpriseId: string, values: readonly NewSubControl[]): Promise<SubControlRow[]> {
  return insertInChunks(values, (chunk) =>
    db
      .insertInto('sub_controls')
      .values(chunk.map((value) => ({ enterprise_id: enterpriseId, ...value })))
      .returning(SUB_CONTROL_COLUMNS)
      .execute(),
  );
}

/** The row locked for the rest of the transaction: tod and toe change one request after another. */
export async function lockSubControl(db: Executor, enterpriseId: string, id: string): Promise<VersionedSubControlRow | undefined> {
  return lockOwnRow(db, 'sub_controls', enterpriseId, id, VERSIONED_COLUMNS);
}

export async function updateSubControl(db: Executor, enterpriseId: string, id: string, changes: SubControlChanges): Promise<VersionedSubControlRow> {
  return updateOwnRow(db, 'sub_controls', enterpriseId, id, { ...changes, updated_at: sql<Date>`now()` }, VERSIONED_COLUMNS);
}

/** The archived sub-control's new row version. */
export async function archiveSubControl(db: Executor, enterpriseId: string, id: string): Promise<number> {
  const row = await updateOwnRow(db, 'sub_controls', enterpriseId, id, ARCHIVED_NOW, ['row_version']);
  return row.row_version;
}

/** Archives the still-active sub-controls of a key control; returns their ids. */
export async function archiveSubControlsOf(db: Executor, enterpriseId: string, keyControlId: string): Promise<string[]> {
  const rows = await db
    .updateTable('sub_controls')
    .set(ARCHIVED_NOW)
    .where('enterprise_id', '=', enterpriseId)
    .where('key_control_id', '=', keyControlId)
    .where('archived', '=', false)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

export interface SubControlFilter {
  keyControlId?: string | undefined;
  tod?: TestOfDesign | undefined;
  toe?: TestOfEffectiveness | undefined;
  totalEffectiveness?: TotalEffectiveness | undefined;
  /** true: only those whose ToD or ToE is unset; false: only assessed ones. */
  notAssessed?: boolean | undefined;
  /** Text the name or the description contains, case-insensitively (already trimmed, never empty). */
  search?: string | undefined;
  /** Archived ones, and the sub-controls linked to the BRAs of an entity, unit or one BRA. */
  scope: CountScope;
}

/** The filtered list, not yet ordered: the whole list and its pages share it. */
function filteredSubControls(db: Executor, enterpriseId: string, filter: SubControlFilter) {
  let query = subControlsInScope(db, enterpriseId, filter.scope).select(SUB_CONTROL_COLUMNS);
  if (filter.keyControlId !== undefined) query = query.where('sc.key_control_id', '=', filter.keyControlId);
  if (filter.tod !== undefined) query = query.where('sc.tod', '=', filter.tod);
  if (filter.toe !== undefined) query = query.where('sc.toe', '=', filter.toe);
  if (filter.totalEffectiveness !== undefined) query = query.where('sc.total_effectiveness', '=', filter.totalEffectiveness);
  if (filter.notAssessed !== undefined) {
    query = query.where('sc.total_effectiveness', filter.notAssessed ? 'is' : 'is not', null);
  }
  if (filter.search !== undefined) {
    // ILIKE on each column (not on their concatenation), so the trigram index of each can serve it.
    const pattern = containsPattern(filter.search);
    query = query.where(sql<boolean>`(sc.name ilike ${pattern} or sc.description ilike ${pattern})`);
  }
  return query;
}

/**
 * Newest first (D2.5). The interface lists sub-controls without pagination. Built on the same scope
 * query as the effectiveness counts and the heat map, so each count's filter lists exactly its rows.
 */
export async function listSubControls(db: Executor, enterpriseId: string, filter: SubControlFilter): Promise<SubControlRow[]> {
  return filteredSubControls(db, enterpriseId, filter).orderBy('sc.created_at', 'desc').orderBy('sc.id', 'desc').execute();
}

/**
 * One page of the same list, in the same order, after `after` (keyset: `(created_at, id) < after`, which the
 * tenant's `(enterprise_id, …, created_at desc, id desc)` indexes serve at any depth). One row more than
 * asked tells whether a page follows; each row carries its position (created_at with microseconds, which a
 * JS Date would round) for the next cursor.
 */
export async function pageSubControls(
  db: Executor,
  enterpriseId: string,
  filter: SubControlFilter,
  page: { limit: number; after: KeysetPosition | null },
): Promise<{ rows: SubControlRow[]; last: KeysetPosition | null }> {
  let query = filteredSubControls(db, enterpriseId, filter).select(
    sql<string>`to_char(sc.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('position_at'),
  );
  if (page.after !== null) {
    query = query.where(sql<boolean>`(sc.created_at, sc.id) < (${page.after.at}::timestamptz, ${page.after.id}::uuid)`);
  }
  const found = await query.orderBy('sc.created_at', 'desc').orderBy('sc.id', 'desc').limit(page.limit + 1).execute();
  const more = found.length > page.limit;
  const rows = found.slice(0, page.limit).map(({ position_at: _position, ...row }) => row);
  const lastRow = found[page.limit - 1];
  return { rows, last: more && lastRow !== undefined ? { at: lastRow.position_at, id: lastRow.id } : null };
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
  return findOwnRow(db, 'sub_controls', enterpriseId, subControlId, ['id', 'name', 'archived']);
}
