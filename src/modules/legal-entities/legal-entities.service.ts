import type { Static } from 'typebox';
import type { Caller } from '../../platform/auth/principal.js';
import { requireMember } from '../../platform/auth/policies.js';
import { auditFrom } from '../../platform/audit/audit-events.js';
import { writeAudit } from '../../platform/audit/audit-writer.js';
import type { Executor } from '../../platform/db/schema.js';
import { inTransaction, joinRequestWork } from '../../platform/db/transaction.js';
import { requireCurrentVersion, servedVersion } from '../../platform/http/conditional/preconditions.js';
import { AppError, invalidState, notFound } from '../../platform/http/errors.js';
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
import { legalEntityListScope, requireLegalEntityAdmin } from './legal-entities.policy.js';
import type { BusinessUnitView, LegalEntityListItem, LegalEntityView } from './legal-entities.schemas.js';

// The wire shape of a legal entity (its enterprise_id stays inside).
const presentEntity = (row: { id: string; name: string; description: string | null; created_at: Date; archived_at: Date | null }): Static<typeof LegalEntityView> => ({
  id: row.id,
  name: row.name,
  description: row.description,
  created_at: row.created_at,
  archived_at: row.archived_at,
});

// The wire shape of a business unit: the row's version travels in the ETag, not in the body.
const presentUnit = (row: Static<typeof BusinessUnitView> & { row_version: number }): Static<typeof BusinessUnitView> => ({
  id: row.id,
  legal_entity_id: row.legal_entity_id,
  name: row.name,
  description: row.description,
  created_at: row.created_at,
  archived_at: row.archived_at,
});

/** Only what differs from the row: an unchanged field is neither written nor audited. */
function changesOf(row: { name: string; description: string | null }, input: { name?: string | undefined; description?: string | null | undefined }) {
  const changes: { name?: string; description?: string | null } = {};
  const previous: Record<string, unknown> = {};
  if (input.name !== undefined && input.name !== row.name) {
    changes.name = input.name;
    previous['name'] = row.name;
  }
  if (input.description !== undefined && (input.description || null) !== row.description) {
    changes.description = input.description || null;
    previous['description'] = row.description;
  }
  return { changes, previous };
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
      requireMember(caller);
      const rows = await listLegalEntities(db, caller.enterpriseId, legalEntityListScope(caller), includeArchived);
      return rows.map((row) => ({ ...presentEntity(row), business_units: row.business_units }));
    },

    async create(caller: Caller, input: { name: string; description?: string | null | undefined }): Promise<Static<typeof LegalEntityView>> {
      requireLegalEntityAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(joinRequestWork(db, caller), async ({ trx }) => {
        const entity = await insertLegalEntity(trx, enterpriseId, {
          name: input.name,
          description: input.description || null,
        });
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
          action: 'create',
          entityType: 'legal_entity',
          entityId: entity.id,
          details: { name: entity.name, description: entity.description },
        });
        return presentEntity(entity);
      });
    },

    /**
     * A business unit is part of its legal entity, so its creation is recorded as an `update` of the
     * legal entity (as D10.3 records scenario links as updates of their BRA); the details name the unit.
     */
    async createBusinessUnit(caller: Caller, legalEntityId: string, input: { name: string }): Promise<Static<typeof BusinessUnitView>> {
      requireLegalEntityAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(joinRequestWork(db, caller), async ({ trx }) => {
        const entity = await findLegalEntity(trx, enterpriseId, legalEntityId);
        if (entity === undefined) throw notFound('Legal entity');
        if (entity.archived_at !== null) throw invalidState('The legal entity is archived');
        const unit = await insertBusinessUnit(trx, enterpriseId, legalEntityId, input.name);
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
          action: 'update',
          entityType: 'legal_entity',
          entityId: legalEntityId,
          details: {
            change: 'business_unit_created',
            business_unit_id: unit.id,
            name: unit.name,
          },
        });
        return unit;
      });
    },

    async update(caller: Caller, id: string, input: { name?: string | undefined; description?: string | null | undefined }): Promise<Static<typeof LegalEntityView>> {
      requireLegalEntityAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const entity = await findLegalEntityForUpdate(trx, enterpriseId, id);
        if (entity === undefined) throw notFound('Legal entity');
        requireCurrentVersion(caller, entity.row_version);
        if (entity.archived_at !== null) throw invalidState('An archived legal entity cannot be changed');
        const { changes, previous } = changesOf(entity, input);
        if (Object.keys(changes).length === 0) {
          servedVersion(caller, entity.row_version);
          return presentEntity(entity);
        }
        const updated = await updateLegalEntity(trx, enterpriseId, id, changes);
        servedVersion(caller, updated.row_version);
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
          action: 'update',
          entityType: 'legal_entity',
          entityId: id,
          details: { changes, previous },
        });
        return presentEntity(updated);
      });
    },

    async archive(caller: Caller, id: string): Promise<Static<typeof LegalEntityView>> {
      requireLegalEntityAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const entity = await findLegalEntityForUpdate(trx, enterpriseId, id);
        if (entity === undefined) throw notFound('Legal entity');
        requireCurrentVersion(caller, entity.row_version);
        if (entity.archived_at !== null) throw invalidState('The legal entity is archived already');
        refuseWhileInUse('legal entity', await liveBrasUsing(trx, enterpriseId, { legalEntityId: id }));
        const archived = await archiveLegalEntity(trx, enterpriseId, id, caller.userId, new Date());
        servedVersion(caller, archived.entity.row_version);
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
          action: 'update',
          entityType: 'legal_entity',
          entityId: id,
          details: { change: 'archived', name: entity.name, business_units_archived: archived.units },
        });
        return presentEntity(archived.entity);
      });
    },

    /** Recorded as an `update` of its legal entity, as its creation is. */
    async updateBusinessUnit(caller: Caller, id: string, input: { name?: string | undefined; description?: string | null | undefined }): Promise<Static<typeof BusinessUnitView>> {
      requireLegalEntityAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const unit = await findBusinessUnitForUpdate(trx, enterpriseId, id);
        if (unit === undefined) throw notFound('Business unit');
        requireCurrentVersion(caller, unit.row_version);
        if (unit.archived_at !== null) throw invalidState('An archived business unit cannot be changed');
        const { changes, previous } = changesOf(unit, input);
        if (Object.keys(changes).length === 0) {
          servedVersion(caller, unit.row_version);
          return presentUnit(unit);
        }
        const updated = await updateBusinessUnit(trx, enterpriseId, id, changes);
        servedVersion(caller, updated.row_version);
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
          action: 'update',
          entityType: 'legal_entity',
          entityId: unit.legal_entity_id,
          details: { change: 'business_unit_updated', business_unit_id: id, changes, previous },
        });
        return presentUnit(updated);
      });
    },

    async archiveBusinessUnit(caller: Caller, id: string): Promise<Static<typeof BusinessUnitView>> {
      requireLegalEntityAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const unit = await findBusinessUnitForUpdate(trx, enterpriseId, id);
        if (unit === undefined) throw notFound('Business unit');
        requireCurrentVersion(caller, unit.row_version);
        if (unit.archived_at !== null) throw invalidState('The business unit is archived already');
        refuseWhileInUse('business unit', await liveBrasUsing(trx, enterpriseId, { businessUnitId: id }));
        const archived = await archiveBusinessUnit(trx, enterpriseId, id, caller.userId, new Date());
        servedVersion(caller, archived.row_version);
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
          action: 'update',
          entityType: 'legal_entity',
          entityId: unit.legal_entity_id,
          details: { change: 'business_unit_archived', business_unit_id: id, name: unit.name },
        });
        return presentUnit(archived);
      });
    },
  };
}

export type LegalEntitiesService = ReturnType<typeof createLegalEntitiesService>;
