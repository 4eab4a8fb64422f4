import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../../platform/db/schema.js';
import type { KeyControlsTable } from '../../../platform/db/tables/controls.js';
import { SUB_CONTROL_COLUMNS, type SubControlRow } from '../library/sub-controls.repository.js';

/**
 * The active library in file order: key controls by name, each followed by its active sub-controls by
 * name (a key control without any gives one row with null sub-control columns). One statement, read
 * through a cursor by the export.
 */
export function libraryExportQuery(db: Executor, enterpriseId: string) {
  return db
    .selectFrom('key_controls as k')
    .leftJoin('sub_controls as s', (join) =>
      join.onRef('s.enterprise_id', '=', 'k.enterprise_id').onRef('s.key_control_id', '=', 'k.id').on('s.archived', '=', false),
    )
    .where('k.enterprise_id', '=', enterpriseId)
    .where('k.archived', '=', false)
    .select([
      'k.name as key_control',
      'k.description as key_control_description',
      's.name as sub_control',
      's.description as sub_control_description',
      's.tod',
      's.toe',
      's.total_effectiveness',
      sql<string | null>`to_char(s.testing_date, 'YYYY-MM-DD')`.as('testing_date'),
      's.tested_by',
      's.evidence_notes',
      's.tod_justification',
      's.toe_justification',
      's.testing_frequency',
    ])
    .orderBy('k.name')
    .orderBy('k.created_at')
    .orderBy('k.id')
    .orderBy('s.name')
    .orderBy('s.created_at')
    .orderBy('s.id');
}

export type ActiveKeyControl = Pick<Selectable<KeyControlsTable>, 'id' | 'name' | 'description'>;

/**
 * Every active key control and sub-control of the enterprise, to match an import's rows by name, locked
 * until the import commits: a concurrent change or archive waits rather than being overwritten by values
 * computed from what was read here.
 */
export async function loadActiveLibrary(db: Executor, enterpriseId: string): Promise<{ keyControls: ActiveKeyControl[]; subControls: SubControlRow[] }> {
  const keyControls = await db
    .selectFrom('key_controls')
    .select(['id', 'name', 'description'])
    .where('enterprise_id', '=', enterpriseId)
    .where('archived', '=', false)
    .forUpdate()
    .execute();
  const subControls = await db
    .selectFrom('sub_controls')
    .select(SUB_CONTROL_COLUMNS)
    .where('enterprise_id', '=', enterpriseId)
    .where('archived', '=', false)
    .forUpdate()
    .execute();
  return { keyControls, subControls };
}

/** One import at a time per enterprise: two imports of one new key control must not both create it. */
export async function lockLibraryForImport(db: Executor, enterpriseId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`control-library-import:${enterpriseId}`}, 0))`.execute(db);
}
