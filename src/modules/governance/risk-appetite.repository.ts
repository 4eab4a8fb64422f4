import { sql } from 'kysely';
import type { Executor } from '../../platform/db/schema.js';
import type { RiskLevel } from '../../platform/db/tables/governance.js';

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
] as const;

/**
 * D6.9 in one statement: the record of the business unit, else of the legal entity (unit null), else the
 * enterprise default, picked by ordering the (at most three) candidates by specificity. Served by the
 * unique index on the scope.
 */
export async function findApplicableAppetite(db: Executor, enterpriseId: string, scope: AppetiteScope) {
  return db
    .selectFrom('risk_appetites')
    .select(APPETITE_COLUMNS)
    .where('enterprise_id', '=', enterpriseId)
    .where((eb) =>
      eb.or([
        eb.and([eb('legal_entity_id', 'is', null), eb('business_unit_id', 'is', null)]),
        eb.and([eb('legal_entity_id', '=', scope.legalEntityId), eb('business_unit_id', 'is', null)]),
        ...(scope.businessUnitId === null
          ? []
          : [eb.and([eb('legal_entity_id', '=', scope.legalEntityId), eb('business_unit_id', '=', scope.businessUnitId)])]),
      ]),
    )
    .orderBy(sql`(business_unit_id is not null)::int + (legal_entity_id is not null)::int`, 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertAppetite(
  db: Executor,
  enterpriseId: string,
  values: AppetiteScope & { risk_level: RiskLevel; threshold_value: number; description: string | null; updated_by: string },
) {
  return db
    .insertInto('risk_appetites')
    .values({
      enterprise_id: enterpriseId,
      legal_entity_id: values.legalEntityId,
      business_unit_id: values.businessUnitId,
      risk_level: values.risk_level,
      threshold_value: values.threshold_value,
      description: values.description,
      updated_by: values.updated_by,
    })
    .returning(APPETITE_COLUMNS)
    .executeTakeFirstOrThrow();
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
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}
