import { sql, type Expression, type SqlBool } from 'kysely';
import { lockOwnRow, updateOwnRow } from '../../platform/db/own-rows.js';
import type { Executor } from '../../platform/db/schema.js';
import type { RiskLevel } from '../../platform/db/tables/governance.js';
import { appetiteCandidates, MOST_SPECIFIC_FIRST, placeOf } from './appetite-rules.js';

export interface AppetiteScope {
  legalEntityId: string | null;
  businessUnitId: string | null;
}

const APPETITE_COLUMNS = [
  'id',
  'risk_level',
  'threshold_value',
  'description',
  'legal_entity_id',
  'business_unit_id',
  'created_at',
  'updated_at',
  'updated_by',
  // The version an upsert or a delete compares If-Match with (not part of the API's view).
  'row_version',
] as const;

/**
 * D6.9 in one statement: the record of the business unit, else of the legal entity, else the enterprise
 * default (appetite-rules.ts: the candidates, the most specific first). Served by the unique index on the scope.
 */
export async function findApplicableAppetite(db: Executor, enterpriseId: string, scope: AppetiteScope) {
  return db
    .selectFrom('risk_appetites as ra')
    .select(APPETITE_COLUMNS)
    .where(appetiteCandidates(placeOf(enterpriseId, scope.legalEntityId, scope.businessUnitId)))
    .orderBy(MOST_SPECIFIC_FIRST)
    .limit(1)
    .executeTakeFirst();
}

type AppetiteValues = AppetiteScope & { risk_level: RiskLevel; threshold_value: number; description: string | null; updated_by: string };

/** The insert of a scope's record, as both inserts (plain, and unless one exists) write it. */
const appetiteInsert = (db: Executor, enterpriseId: string, values: AppetiteValues) =>
  db.insertInto('risk_appetites').values({
    enterprise_id: enterpriseId,
    legal_entity_id: values.legalEntityId,
    business_unit_id: values.businessUnitId,
    risk_level: values.risk_level,
    threshold_value: values.threshold_value,
    description: values.description,
    updated_by: values.updated_by,
  });

export async function insertAppetite(db: Executor, enterpriseId: string, values: AppetiteValues) {
  return appetiteInsert(db, enterpriseId, values).returning(APPETITE_COLUMNS).executeTakeFirstOrThrow();
}

export async function insertAppetiteHistory(
  db: Executor,
  enterpriseId: string,
  entry: AppetiteScope & {
    riskAppetiteId: string;
    previous: { level: RiskLevel; threshold: number } | null;
    next: { level: RiskLevel; threshold: number } | null;
    changedBy: string;
    reason: string | null;
  },
) {
  return db
    .insertInto('risk_appetite_history')
    .values({
      enterprise_id: enterpriseId,
      risk_appetite_id: entry.riskAppetiteId,
      legal_entity_id: entry.legalEntityId,
      business_unit_id: entry.businessUnitId,
      previous_level: entry.previous?.level ?? null,
      new_level: entry.next?.level ?? null,
      previous_threshold: entry.previous?.threshold ?? null,
      new_threshold: entry.next?.threshold ?? null,
      changed_by: entry.changedBy,
      reason: entry.reason,
      // The moment of the change itself (after any row lock was granted), not the transaction's start:
      // concurrent changes of one record are then ordered as they were applied.
      changed_at: sql<Date>`clock_timestamp()` as unknown as Date,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

type Predicate = Expression<SqlBool>;

export interface AppetiteFilters {
  legal_entity_id?: string | undefined;
  business_unit_id?: string | undefined;
}

/** The records of the enterprise the caller may see (`visible`), narrowed by the filters; newest first. */
export async function listAppetites(db: Executor, enterpriseId: string, filters: AppetiteFilters, visible: Predicate) {
  let query = db.selectFrom('risk_appetites').select(APPETITE_COLUMNS).where('enterprise_id', '=', enterpriseId).where(visible);
  if (filters.legal_entity_id !== undefined) query = query.where('legal_entity_id', '=', filters.legal_entity_id);
  if (filters.business_unit_id !== undefined) query = query.where('business_unit_id', '=', filters.business_unit_id);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/** The record of exactly this scope, locked until the transaction ends (the upsert's read). */
export async function findAppetiteOfScopeForUpdate(db: Executor, enterpriseId: string, scope: AppetiteScope) {
  return db
    .selectFrom('risk_appetites')
    .select(APPETITE_COLUMNS)
    .where('enterprise_id', '=', enterpriseId)
    .where((eb) => (scope.legalEntityId === null ? eb('legal_entity_id', 'is', null) : eb('legal_entity_id', '=', scope.legalEntityId)))
    .where((eb) => (scope.businessUnitId === null ? eb('business_unit_id', 'is', null) : eb('business_unit_id', '=', scope.businessUnitId)))
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Inserts the record of a scope unless one exists (risk_appetites_scope_key, nulls not distinct): a
 * concurrent upsert that inserted first makes this return undefined, and the caller updates instead.
 */
export async function insertAppetiteIfAbsent(db: Executor, enterpriseId: string, values: AppetiteValues) {
  return appetiteInsert(db, enterpriseId, values)
    .onConflict((oc) => oc.constraint('risk_appetites_scope_key').doNothing())
    .returning(APPETITE_COLUMNS)
    .executeTakeFirst();
}

export async function updateAppetite(
  db: Executor,
  enterpriseId: string,
  id: string,
  values: { risk_level: RiskLevel; threshold_value: number; description: string | null; updated_by: string },
) {
  return updateOwnRow(db, 'risk_appetites', enterpriseId, id, { ...values, updated_at: sql<Date>`now()` }, APPETITE_COLUMNS);
}

export async function findAppetiteForUpdate(db: Executor, enterpriseId: string, id: string) {
  return lockOwnRow(db, 'risk_appetites', enterpriseId, id, APPETITE_COLUMNS);
}

export async function deleteAppetite(db: Executor, enterpriseId: string, id: string): Promise<void> {
  await db.deleteFrom('risk_appetites').where('enterprise_id', '=', enterpriseId).where('id', '=', id).execute();
}

export interface HistoryFilters {
  risk_appetite_id?: string | undefined;
  legal_entity_id?: string | undefined;
}

const HISTORY_COLUMNS = [
  'id',
  'risk_appetite_id',
  'legal_entity_id',
  'business_unit_id',
  'previous_level',
  'new_level',
  'previous_threshold',
  'new_threshold',
  'changed_by',
  'changed_at',
  'reason',
] as const;

/** History of the enterprise the caller may see, newest first (changed_at desc, then id). */
export async function listAppetiteHistory(db: Executor, enterpriseId: string, filters: HistoryFilters, visible: Predicate) {
  let query = db
    .selectFrom('risk_appetite_history')
    .select(HISTORY_COLUMNS)
    // Who made the change, by name, in the same statement (users are the identity module's; read, never written).
    .select((eb) => eb.selectFrom('users').select('users.full_name').whereRef('users.id', '=', 'risk_appetite_history.changed_by').as('changed_by_name'))
    .where('enterprise_id', '=', enterpriseId)
    .where(visible);
  if (filters.risk_appetite_id !== undefined) query = query.where('risk_appetite_id', '=', filters.risk_appetite_id);
  if (filters.legal_entity_id !== undefined) query = query.where('legal_entity_id', '=', filters.legal_entity_id);
  return query.orderBy('changed_at', 'desc').orderBy('id', 'desc').execute();
}
