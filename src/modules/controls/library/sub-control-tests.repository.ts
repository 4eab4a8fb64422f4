import { sql, type Selectable } from 'kysely';
import { insertInChunks } from '../../../platform/db/chunked-insert.js';
import type { Executor } from '../../../platform/db/schema.js';
import type { SubControlTestsTable, TestRecordSource } from '../../../platform/db/tables/controls.js';

/** The result fields a test record keeps: the sub-control's state once the test was entered. */
export type TestResult = Pick<
  Selectable<SubControlTestsTable>,
  'tod' | 'toe' | 'total_effectiveness' | 'testing_date' | 'tested_by' | 'evidence_notes' | 'tod_justification' | 'toe_justification'
>;

export interface TestRecordRow extends TestResult {
  id: string;
  sub_control_id: string;
  source: TestRecordSource;
  recorded_at: Date;
  recorded_by: string | null;
  recorded_by_name: string | null;
}

/** Appends one record; the table refuses any later change (migration 20261127180000). */
export async function appendTestRecord(
  db: Executor,
  enterpriseId: string,
  values: TestResult & { sub_control_id: string; source: TestRecordSource; recorded_by: string | null },
): Promise<{ id: string; recorded_at: Date }> {
  return db
    .insertInto('sub_control_tests')
    .values({ enterprise_id: enterpriseId, ...values })
    .returning(['id', 'recorded_at'])
    .executeTakeFirstOrThrow();
}

/** A sub-control's records, newest first, with the recorder's name (a read-only join on users). */
function records(db: Executor, enterpriseId: string, subControlId: string) {
  return db
    .selectFrom('sub_control_tests as t')
    .where('t.enterprise_id', '=', enterpriseId)
    .where('t.sub_control_id', '=', subControlId);
}

export async function countTestRecords(db: Executor, enterpriseId: string, subControlId: string): Promise<number> {
  const row = await records(db, enterpriseId, subControlId)
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listTestRecords(
  db: Executor,
  enterpriseId: string,
  subControlId: string,
  limit: number,
  offset: number,
): Promise<TestRecordRow[]> {
  return records(db, enterpriseId, subControlId)
    .leftJoin('users as u', 'u.id', 't.recorded_by')
    .select([
      't.id',
      't.sub_control_id',
      't.source',
      't.tod',
      't.toe',
      't.total_effectiveness',
      't.testing_date',
      't.tested_by',
      't.evidence_notes',
      't.tod_justification',
      't.toe_justification',
      't.recorded_at',
      't.recorded_by',
      'u.full_name as recorded_by_name',
    ])
    .orderBy('t.recorded_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

type NewRecord = TestResult & { sub_control_id: string; source: TestRecordSource; recorded_by: string | null };

/** Many records in multi-row INSERTs (an import). */
export async function appendTestRecords(db: Executor, enterpriseId: string, records: readonly NewRecord[]): Promise<void> {
  await insertInChunks(records, (chunk) =>
    db
      .insertInto('sub_control_tests')
      .values(chunk.map((record) => ({ enterprise_id: enterpriseId, ...record })))
      .execute(),
  );
}

/** The record of the result a sub-control holds now. */
export const currentResultRecord = (row: TestResult & { id: string }, source: TestRecordSource, recordedBy: string | null): NewRecord => ({
  sub_control_id: row.id,
  source,
  tod: row.tod,
  toe: row.toe,
  total_effectiveness: row.total_effectiveness,
  testing_date: row.testing_date,
  tested_by: row.tested_by,
  evidence_notes: row.evidence_notes,
  tod_justification: row.tod_justification,
  toe_justification: row.toe_justification,
  recorded_by: recordedBy,
});

/** Appends the result a sub-control holds now (after a create, a test or a PATCH) as one record. */
export async function appendCurrentResult(
  db: Executor,
  enterpriseId: string,
  row: TestResult & { id: string },
  source: TestRecordSource,
  recordedBy: string | null,
): Promise<{ id: string; recorded_at: Date }> {
  return appendTestRecord(db, enterpriseId, currentResultRecord(row, source, recordedBy));
}
