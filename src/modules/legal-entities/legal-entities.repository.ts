import type { Expression, SqlBool } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Executor } from '../../platform/db/schema.js';

// Scope predicates come from the policies (legalEntityScope, assignedScope) over the columns named below.
type Predicate = Expression<SqlBool>;

export interface ListScope {
  /** Which legal entities (column `le.id`) the caller sees. */
  entity: Predicate;
  /** Which business units (columns `bu.legal_entity_id`, `bu.id`) the caller sees. */
  unit: Predicate;
}

/**
 * One query: the entities with their units aggregated as a JSON array per row (no N+1). Newest first,
 * units too (D2.5).
 */
export async function listLegalEntities(db: Executor, enterpriseId: string, scope: ListScope) {
  return db
    .selectFrom('legal_entities as le')
    .select((eb) => [
      'le.id',
      'le.name',
      'le.description',
      'le.created_at',
      jsonArrayFrom(
        eb
          .selectFrom('business_units as bu')
          .select(['bu.id', 'bu.name'])
          .where('bu.enterprise_id', '=', enterpriseId)
          .whereRef('bu.legal_entity_id', '=', 'le.id')
          .where(scope.unit)
          .orderBy('bu.created_at', 'desc')
          .orderBy('bu.id', 'desc'),
      ).as('business_units'),
    ])
    .where('le.enterprise_id', '=', enterpriseId)
    .where(scope.entity)
    .orderBy('le.created_at', 'desc')
    .orderBy('le.id', 'desc')
    .execute();
}

/** A legal entity of the enterprise. Also how other modules look one up (this module owns the organisation). */
export async function findLegalEntity(db: Executor, enterpriseId: string, id: string) {
  return db
    .selectFrom('legal_entities')
    .select(['id', 'name'])
    .where('enterprise_id', '=', enterpriseId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A business unit of the enterprise, with its legal entity. Also how other modules look one up. */
export async function findBusinessUnit(db: Executor, enterpriseId: string, id: string) {
  return db
    .selectFrom('business_units')
    .select(['id', 'name', 'legal_entity_id'])
    .where('enterprise_id', '=', enterpriseId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A duplicate name (case-insensitive) raises legal_entities_name_key, mapped centrally to 409. */
export async function insertLegalEntity(
  db: Executor,
  enterpriseId: string,
  values: { name: string; description: string | null },
) {
  return db
    .insertInto('legal_entities')
    .values({ enterprise_id: enterpriseId, ...values })
    .returning(['id', 'name', 'description', 'created_at'])
    .executeTakeFirstOrThrow();
}

/** A duplicate name within the entity raises business_units_name_key, mapped centrally to 409. */
export async function insertBusinessUnit(db: Executor, enterpriseId: string, legalEntityId: string, name: string) {
  return db
    .insertInto('business_units')
    .values({ enterprise_id: enterpriseId, legal_entity_id: legalEntityId, name })
    .returning(['id', 'legal_entity_id', 'name', 'created_at'])
    .executeTakeFirstOrThrow();
}
