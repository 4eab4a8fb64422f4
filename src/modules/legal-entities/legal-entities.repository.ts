import type { Expression, SqlBool } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { findOwnRow, lockOwnRow, updateOwnRow } from '../../platform/db/own-rows.js';
import type { Executor } from '../../platform/db/schema.js';
import { LIVE } from '../bras/bras.lifecycle.js';

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
export async function listLegalEntities(db: Executor, enterpriseId: string, scope: ListScope, includeArchived = false) {
  let query = db
    .selectFrom('legal_entities as le')
    .select((eb) => {
      let units = eb
        .selectFrom('business_units as bu')
        .select(['bu.id', 'bu.name', 'bu.description', 'bu.archived_at'])
        .where('bu.enterprise_id', '=', enterpriseId)
        .whereRef('bu.legal_entity_id', '=', 'le.id')
        .where(scope.unit);
      if (!includeArchived) units = units.where('bu.archived_at', 'is', null);
      return [
        'le.id',
        'le.name',
        'le.description',
        'le.created_at',
        'le.archived_at',
        jsonArrayFrom(units.orderBy('bu.created_at', 'desc').orderBy('bu.id', 'desc')).as('business_units'),
      ];
    })
    .where('le.enterprise_id', '=', enterpriseId)
    .where(scope.entity);
  // Archived entities leave the pickers; the archived_at filter rides on the list index's enterprise_id.
  if (!includeArchived) query = query.where('le.archived_at', 'is', null);
  return query.orderBy('le.created_at', 'desc').orderBy('le.id', 'desc').execute();
}

/** A legal entity of the enterprise. Also how other modules look one up (this module owns the organisation). */
export async function findLegalEntity(db: Executor, enterpriseId: string, id: string) {
  return findOwnRow(db, 'legal_entities', enterpriseId, id, ['id', 'name', 'archived_at']);
}

/** A business unit of the enterprise, with its legal entity. Also how other modules look one up. */
export async function findBusinessUnit(db: Executor, enterpriseId: string, id: string) {
  return findOwnRow(db, 'business_units', enterpriseId, id, ['id', 'name', 'legal_entity_id', 'archived_at']);
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
    .returning(['id', 'name', 'description', 'created_at', 'archived_at'])
    .executeTakeFirstOrThrow();
}

/** A duplicate name within the entity raises business_units_name_key, mapped centrally to 409. */
export async function insertBusinessUnit(db: Executor, enterpriseId: string, legalEntityId: string, name: string) {
  return db
    .insertInto('business_units')
    .values({ enterprise_id: enterpriseId, legal_entity_id: legalEntityId, name })
    .returning(UNIT_COLUMNS)
    .executeTakeFirstOrThrow();
}

const ENTITY_COLUMNS = ['id', 'name', 'description', 'created_at', 'archived_at'] as const;
const UNIT_COLUMNS = ['id', 'legal_entity_id', 'name', 'description', 'created_at', 'archived_at'] as const;
// What a change reads under the lock and returns: the row and its version (the ETag's, checked by If-Match).
const VERSIONED_ENTITY_COLUMNS = [...ENTITY_COLUMNS, 'row_version'] as const;
const VERSIONED_UNIT_COLUMNS = [...UNIT_COLUMNS, 'row_version'] as const;

/** The entity, locked for a change or an archive (a concurrent BRA creation waits on its key share). */
export async function findLegalEntityForUpdate(db: Executor, enterpriseId: string, id: string) {
  return lockOwnRow(db, 'legal_entities', enterpriseId, id, VERSIONED_ENTITY_COLUMNS);
}

export async function findBusinessUnitForUpdate(db: Executor, enterpriseId: string, id: string) {
  return lockOwnRow(db, 'business_units', enterpriseId, id, VERSIONED_UNIT_COLUMNS);
}

/** A duplicate active name raises legal_entities_name_key (409). */
export async function updateLegalEntity(db: Executor, enterpriseId: string, id: string, changes: { name?: string; description?: string | null }) {
  return updateOwnRow(db, 'legal_entities', enterpriseId, id, { ...changes, updated_at: new Date() }, VERSIONED_ENTITY_COLUMNS);
}

export async function updateBusinessUnit(db: Executor, enterpriseId: string, id: string, changes: { name?: string; description?: string | null }) {
  return updateOwnRow(db, 'business_units', enterpriseId, id, { ...changes, updated_at: new Date() }, VERSIONED_UNIT_COLUMNS);
}

/** Archives the entity and its units still active (a unit cannot outlive its entity in the pickers). Returns the units archived. */
export async function archiveLegalEntity(db: Executor, enterpriseId: string, id: string, by: string, at: Date) {
  const units = await db
    .updateTable('business_units')
    .set({ archived_at: at, archived_by: by, updated_at: at })
    .where('enterprise_id', '=', enterpriseId)
    .where('legal_entity_id', '=', id)
    .where('archived_at', 'is', null)
    .returning('id')
    .execute();
  const entity = await updateOwnRow(db, 'legal_entities', enterpriseId, id, { archived_at: at, archived_by: by, updated_at: at }, VERSIONED_ENTITY_COLUMNS);
  return { entity, units: units.map((unit) => unit.id) };
}

export async function archiveBusinessUnit(db: Executor, enterpriseId: string, id: string, by: string, at: Date) {
  return updateOwnRow(db, 'business_units', enterpriseId, id, { archived_at: at, archived_by: by, updated_at: at }, VERSIONED_UNIT_COLUMNS);
}

/**
 * The BRAs still being worked on (live: the BRA lifecycle's set) in an entity or a unit: what an archive
 * must not pull the ground from under. Read here, in one statement on the BRA entity and unit indexes, so
 * that the organisation's owner calls no BRA service.
 */
export async function liveBrasUsing(db: Executor, enterpriseId: string, where: { legalEntityId: string } | { businessUnitId: string }) {
  let query = db
    .selectFrom('bras')
    .select(['id', 'name', 'status'])
    .where('enterprise_id', '=', enterpriseId)
    .where('status', 'in', LIVE);
  query = 'legalEntityId' in where ? query.where('legal_entity_id', '=', where.legalEntityId) : query.where('business_unit_id', '=', where.businessUnitId);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(50).execute();
}
