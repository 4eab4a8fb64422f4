import type { Selectable } from 'kysely';
import { findOwnRow, lockOwnRow, updateOwnRow } from '../../platform/db/own-rows.js';
import { countRows, newestFirst } from '../../platform/db/page-queries.js';
import type { Executor } from '../../platform/db/schema.js';
import type { RiskScenariosTable } from '../../platform/db/tables/risk-scenarios.js';

export interface NewRiskScenario {
  name: string;
  category: string;
  description: string | null;
}

const COLUMNS = ['id', 'name', 'category', 'description', 'created_at', 'archived_at'] as const;

/** A catalogue row as the API returns it. */
export type RiskScenarioRow = Pick<Selectable<RiskScenariosTable>, (typeof COLUMNS)[number]>;

// What a change reads under the lock and returns: the row and its version (the ETag's, checked by If-Match).
const VERSIONED_COLUMNS = [...COLUMNS, 'row_version'] as const;
export type VersionedRiskScenarioRow = RiskScenarioRow & { row_version: number };

/** One multi-row insert; an empty list inserts nothing. */
export async function insertRiskScenarios(
  db: Executor,
  enterpriseId: string,
  scenarios: readonly NewRiskScenario[],
): Promise<RiskScenarioRow[]> {
  if (scenarios.length === 0) return [];
  return db
    .insertInto('risk_scenarios')
    .values(scenarios.map((s) => ({ enterprise_id: enterpriseId, ...s })))
    .returning(COLUMNS)
    .execute();
}

export interface RiskScenarioFilter {
  category?: string | undefined;
  /** Archived scenarios are left out unless asked for. */
  includeArchived?: boolean | undefined;
}

/** The count and the page come from this one filtered query, so totals and rows always agree. */
function filtered(db: Executor, enterpriseId: string, filter: RiskScenarioFilter) {
  let query = db.selectFrom('risk_scenarios').where('enterprise_id', '=', enterpriseId);
  if (filter.category !== undefined) query = query.where('category', '=', filter.category);
  if (filter.includeArchived !== true) query = query.where('archived_at', 'is', null);
  return query;
}

export async function countRiskScenarios(db: Executor, enterpriseId: string, filter: RiskScenarioFilter): Promise<number> {
  return countRows(filtered(db, enterpriseId, filter));
}

export async function listRiskScenarios(db: Executor, enterpriseId: string, filter: RiskScenarioFilter, limit: number, offset: number): Promise<RiskScenarioRow[]> {
  return newestFirst(filtered(db, enterpriseId, filter).select(COLUMNS), limit, offset).execute();
}

/** A scenario of the enterprise's catalogue. Also how other modules look one up (a BRA's scenario links). */
export async function findRiskScenario(db: Executor, enterpriseId: string, riskScenarioId: string) {
  return findOwnRow(db, 'risk_scenarios', enterpriseId, riskScenarioId, ['id', 'name', 'category', 'archived_at']);
}

export async function findRiskScenarioForUpdate(db: Executor, enterpriseId: string, riskScenarioId: string): Promise<VersionedRiskScenarioRow | undefined> {
  return lockOwnRow(db, 'risk_scenarios', enterpriseId, riskScenarioId, VERSIONED_COLUMNS);
}

/** A duplicate active name raises risk_scenarios_name_key (409). */
export async function updateRiskScenario(
  db: Executor,
  enterpriseId: string,
  riskScenarioId: string,
  changes: Partial<NewRiskScenario>,
): Promise<VersionedRiskScenarioRow> {
  return updateOwnRow(db, 'risk_scenarios', enterpriseId, riskScenarioId, { ...changes, updated_at: new Date() }, VERSIONED_COLUMNS);
}

export async function archiveRiskScenario(db: Executor, enterpriseId: string, riskScenarioId: string, by: string, at: Date): Promise<VersionedRiskScenarioRow> {
  return updateOwnRow(db, 'risk_scenarios', enterpriseId, riskScenarioId, { archived_at: at, archived_by: by, updated_at: at }, VERSIONED_COLUMNS);
}

/** Scenarios of the enterprise's catalogue by name (case-insensitive, as names are unique): other modules link to them by name. */
export async function findRiskScenariosByName(db: Executor, enterpriseId: string, names: readonly string[]) {
  if (names.length === 0) return [];
  return db
    .selectFrom('risk_scenarios')
    .select(['id', 'name'])
    .where('enterprise_id', '=', enterpriseId)
    .where((eb) => eb(eb.fn('lower', ['name']), 'in', names.map((name) => name.toLowerCase())))
    .execute();
}
