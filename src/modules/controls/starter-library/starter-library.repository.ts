import type { Transaction } from 'kysely';
import type { DB } from '../../../platform/db/schema.js';

/** Records the load; false when this library was already loaded into the enterprise (the key holds it once). */
export async function recordLibraryLoad(
  trx: Transaction<DB>,
  values: { enterprise_id: string; library: string; key_control_count: number; loaded_by: string },
): Promise<{ loaded_at: Date } | undefined> {
  return trx
    .insertInto('control_library_loads')
    .values(values)
    .onConflict((oc) => oc.columns(['enterprise_id', 'library']).doNothing())
    .returning('loaded_at')
    .executeTakeFirst();
}

/** Key controls in one statement, returned in the order given. */
export async function insertKeyControls(
  trx: Transaction<DB>,
  enterpriseId: string,
  createdBy: string,
  controls: readonly { name: string; description: string }[],
): Promise<string[]> {
  const rows = await trx
    .insertInto('key_controls')
    .values(controls.map((control) => ({ enterprise_id: enterpriseId, name: control.name, description: control.description, created_by: createdBy })))
    .returning(['id', 'name'])
    .execute();
  const idByName = new Map(rows.map((row) => [row.name, row.id]));
  return controls.map((control) => idByName.get(control.name)!);
}

/** Sub-controls without test results (tod, toe and total_effectiveness null: not_assessed, D7.1). */
export async function insertUntestedSubControls(
  trx: Transaction<DB>,
  enterpriseId: string,
  createdBy: string,
  subControls: readonly { key_control_id: string; name: string; description: string }[],
): Promise<number> {
  const rows = await trx
    .insertInto('sub_controls')
    .values(subControls.map((sub) => ({ enterprise_id: enterpriseId, created_by: createdBy, ...sub })))
    .returning('id')
    .execute();
  return rows.length;
}

export async function linkKeyControlsToScenarios(
  trx: Transaction<DB>,
  enterpriseId: string,
  links: readonly { key_control_id: string; risk_scenario_id: string }[],
): Promise<number> {
  if (links.length === 0) return 0;
  const rows = await trx
    .insertInto('key_control_risk_scenarios')
    .values(links.map((link) => ({ enterprise_id: enterpriseId, ...link })))
    .onConflict((oc) => oc.doNothing())
    .returning('key_control_id')
    .execute();
  return rows.length;
}
