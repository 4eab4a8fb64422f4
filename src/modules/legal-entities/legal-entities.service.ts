import type { Static } from 'typebox';
import type { Caller } from '../../platform/auth/principal.js';
import { recordChange } from '../../platform/audit/record-change.js';
import { diffFields, isEmptyDiff } from '../../platform/changes/field-diff.js';
import { archiveVersioned, updateVersioned } from '../../platform/changes/versioned-change.js';
import type { Executor } from '../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../platform/db/transaction.js';
import { AppError, invalidState, notFound } from '../../platform/errors/app-error.js';
import type { ChangeTerms } from '../../platform/versions/change-terms.js';
import { versioned, versionState, type Versioned } from '../../platform/versions/resource-state.js';
import {
  archiveBusinessUnit,
  archiveLegalEntity,
  findBusinessUnitForUpdate,
  findLegalEntity,
  findLegalEntityForUpdate,
  insertBusinessUnit,
  insertLegalEntity,
  listLegalEntities,
  liveBrasUsing,
  updateBusinessUnit,
  updateLegalEntity,
} from './legal-entities.repository.js';
import { legalEntityListScope, requireLegalEntityAdmin, requireLegalEntityReader } from './legal-entities.policy.js';
import type { BusinessUnitView, LegalEntityListItem, LegalEntityView } from './legal-entities.schemas.js';

type LegalEntity = Static<typeof LegalEntityView>;
type BusinessUnit = Static<typeof BusinessUnitView>;

// The wire shape of a legal entity (its enterprise_id stays inside).
const presentEntity = (row: { id: string; name: string; description: string | null; created_at: Date; archived_at: Date | null }): LegalEntity => ({
  id: row.id,
  name: row.name,
  description: row.description,
  created_at: row.created_at,
  archived_at: row.archived_at,
});

// The wire shape of a business unit: the row's version travels in the ETag, not in the body.
const presentUnit = (row: BusinessUnit & { row_version: number }): BusinessUnit => ({
  id: row.id,
  legal_entity_id: row.legal_entity_id,
  name: row.name,
  description: row.description,
  created_at: row.created_at,
  archived_at: row.archived_at,
});

/** The fields a change of an entity or a unit may set; an empty description is no description. */
const wantedOf = (input: { name?: string | undefined; description?: string | null | undefined }) => ({
  name: input.name,
  description: input.description === undefined ? undefined : input.description || null,
});

/** Only what differs from the row: an unchanged field is neither written nor audited. */
function changesOf<Row extends { name: string; description: string | null }>(row: Row, input: Parameters<typeof wantedOf>[0]) {
  const diff = diffFields<{ name: string; description: string | null }>(row, wantedOf(input));
  return isEmptyDiff(diff) ? null : diff;
}

function refuseArchived(row: { archived_at: Date | null }, why: string): void {
  if (row.archived_at !== null) throw invalidState(why);
}

/** 409 naming the BRAs still being worked on in what is to be archived. */
function refuseWhileInUse(what: string, bras: { id: string; name: string; status: string }[]): void {
  if (bras.length === 0) return;
  throw new AppError('INVALID_STATE', `The ${what} is used by BRAs still in progress: ${bras.map((b) => b.name).join(', ')}`, { bras });
}

export interface LegalEntitiesServiceDeps {
  /** The database, or the caller's open transaction to join. */
  db: Executor;
}

export function createLegalEntitiesService({ db }: LegalEntitiesServiceDeps) {
  return {
    /** What the caller sees of the organisation (legalEntityListScope). */
    async listVisible(caller: Caller, includeArchived = false): Promise<Static<typeof LegalEntityListItem>[]> {
      requireLegalEntityReader(caller);
      const rows = await listLegalEntities(db, caller.enterpriseId, legalEntityListScope(caller), includeArchived);
      return rows.map((row) => ({ ...presentEntity(row), business_units: row.business_units }));
    },

    async create(caller: Caller, input: { name: string; description?: string | null | undefined }, terms: ChangeTerms): Promise<LegalEntity> {
      requireLegalEntityAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const entity = await insertLegalEntity(trx, enterpriseId, {
          name: input.name,
          description: input.description || null,
        });
        await recordChange(trx, caller, {
          action: 'create',
          entityType: 'legal_entity',
          entityId: entity.id,
          details: { name: entity.name, description: entity.description },
        });
        return presentEntity(entity);
      });
    },

    /** A business unit's changes are recorded on the unit (`business_unit`), their details naming its legal entity. */
    async createBusinessUnit(caller: Caller, legalEntityId: string, input: { name: string }, terms: ChangeTerms): Promise<BusinessUnit> {
      requireLegalEntityAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const entity = await findLegalEntity(trx, enterpriseId, legalEntityId);
        if (entity === undefined) throw notFound('Legal entity');
        refuseArchived(entity, 'The legal entity is archived');
        const unit = await insertBusinessUnit(trx, enterpriseId, legalEntityId, input.name);
        await recordChange(trx, caller, {
          action: 'create',
          entityType: 'business_unit',
          entityId: unit.id,
          details: { legal_entity_id: legalEntityId, name: unit.name },
        });
        return unit;
      });
    },

    async update(caller: Caller, id: string, input: { name?: string | undefined; description?: string | null | undefined }, terms: ChangeTerms): Promise<Versioned<LegalEntity>> {
      requireLegalEntityAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const { row } = await updateVersioned(trx, caller, terms, {
          noun: 'Legal entity',
          lock: () => findLegalEntityForUpdate(trx, enterpriseId, id),
          refuse: (entity) => refuseArchived(entity, 'An archived legal entity cannot be changed'),
          diff: (entity) => changesOf(entity, input),
          write: (_entity, diff) => updateLegalEntity(trx, enterpriseId, id, diff.set),
          audit: (_entity, _updated, diff) => ({ entityType: 'legal_entity', entityId: id, details: { changes: diff.set, previous: diff.previous } }),
        });
        return versioned(presentEntity(row), versionState(row.row_version));
      });
    },

    /** The entity and its active units; refused while a BRA in progress uses it (409). */
    async archive(caller: Caller, id: string, terms: ChangeTerms): Promise<Versioned<LegalEntity>> {
      requireLegalEntityAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        let unitsArchived: string[] = [];
        const { row } = await archiveVersioned(trx, caller, terms, {
          noun: 'Legal entity',
          lock: () => findLegalEntityForUpdate(trx, enterpriseId, id),
          isArchived: (entity) => entity.archived_at !== null,
          again: { refuse: 'The legal entity is archived already' },
          refuse: async () => refuseWhileInUse('legal entity', await liveBrasUsing(trx, enterpriseId, { legalEntityId: id })),
          archive: async () => {
            const archived = await archiveLegalEntity(trx, enterpriseId, id, caller.userId, new Date());
            unitsArchived = archived.units;
            return archived.entity;
          },
          // Each unit archived with it has its own entry, so each unit's history shows it.
          audit: (entity) => [
            { entityType: 'legal_entity', entityId: id, details: { change: 'archived', name: entity.name, business_units_archived: unitsArchived } },
            ...unitsArchived.map((unitId) => ({ entityType: 'business_unit' as const, entityId: unitId, details: { legal_entity_id: id, with_legal_entity: true } })),
          ],
        });
        return versioned(presentEntity(row), versionState(row.row_version));
      });
    },

    async updateBusinessUnit(caller: Caller, id: string, input: { name?: string | undefined; description?: string | null | undefined }, terms: ChangeTerms): Promise<Versioned<BusinessUnit>> {
      requireLegalEntityAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const { row } = await updateVersioned(trx, caller, terms, {
          noun: 'Business unit',
          lock: () => findBusinessUnitForUpdate(trx, enterpriseId, id),
          refuse: (unit) => refuseArchived(unit, 'An archived business unit cannot be changed'),
          diff: (unit) => changesOf(unit, input),
          write: (_unit, diff) => updateBusinessUnit(trx, enterpriseId, id, diff.set),
          audit: (unit, _updated, diff) => ({
            entityType: 'business_unit',
            entityId: id,
            details: { legal_entity_id: unit.legal_entity_id, changes: diff.set, previous: diff.previous },
          }),
        });
        return versioned(presentUnit(row), versionState(row.row_version));
      });
    },

    /** Refused while a BRA in progress uses the unit (409). */
    async archiveBusinessUnit(caller: Caller, id: string, terms: ChangeTerms): Promise<Versioned<BusinessUnit>> {
      requireLegalEntityAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const { row } = await archiveVersioned(trx, caller, terms, {
          noun: 'Business unit',
          lock: () => findBusinessUnitForUpdate(trx, enterpriseId, id),
          isArchived: (unit) => unit.archived_at !== null,
          again: { refuse: 'The business unit is archived already' },
          refuse: async () => refuseWhileInUse('business unit', await liveBrasUsing(trx, enterpriseId, { businessUnitId: id })),
          archive: () => archiveBusinessUnit(trx, enterpriseId, id, caller.userId, new Date()),
          audit: (unit) => ({ entityType: 'business_unit', entityId: id, details: { legal_entity_id: unit.legal_entity_id, name: unit.name } }),
        });
        return versioned(presentUnit(row), versionState(row.row_version));
      });
    },
  };
}

export type LegalEntitiesService = ReturnType<typeof createLegalEntitiesService>;
