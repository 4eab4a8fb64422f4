import type { Static } from 'typebox';
import type { Caller } from '../../platform/auth/principal.js';
import { assignedScope, legalEntityScope, requireMember, requireRole } from '../../platform/auth/policies.js';
import { auditFrom } from '../../platform/audit/audit-events.js';
import { writeAudit } from '../../platform/audit/audit-writer.js';
import type { Executor } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { forbidden, notFound } from '../../platform/http/errors.js';
import {
  findLegalEntityId,
  insertBusinessUnit,
  insertLegalEntity,
  listLegalEntities,
} from './legal-entities.repository.js';
import type { BusinessUnitView, LegalEntityListItem, LegalEntityView } from './legal-entities.schemas.js';

// The wire shape of a legal entity (its enterprise_id stays inside).
const presentEntity = (row: { id: string; name: string; description: string | null; created_at: Date }): Static<typeof LegalEntityView> => ({
  id: row.id,
  name: row.name,
  description: row.description,
  created_at: row.created_at,
});

/**
 * D5 lets super admins call /admin/*, but this body names no enterprise, so a super admin has none to
 * create the entity in: refused with 403 (as are assessors and reviewers).
 */
function requireClientAdmin(caller: Caller): asserts caller is Caller & { enterpriseId: string } {
  if (caller.enterpriseId === null) {
    throw forbidden('Super admins belong to no enterprise: legal entities are created by a client admin');
  }
  requireRole(caller, ['admin'], 'the administration of legal entities');
}

export interface LegalEntitiesServiceDeps {
  /** The database, or the caller's open transaction to join. */
  db: Executor;
}

export function createLegalEntitiesService({ db }: LegalEntitiesServiceDeps) {
  return {
    /**
     * Client admins see every legal entity; assessors and reviewers the entities any of their entity roles
     * names (seesLegalEntity). Within an entity, they see the business units D5 calls "assigned": all of
     * them with a whole-entity role, otherwise only the units their roles name, so that the list offers
     * exactly the units they may create or read BRAs in.
     */
    async listVisible(caller: Caller): Promise<Static<typeof LegalEntityListItem>[]> {
      requireMember(caller);
      const rows = await listLegalEntities(db, caller.enterpriseId, {
        entity: legalEntityScope(caller, 'le.id'),
        unit: assignedScope(caller, 'bu.legal_entity_id', 'bu.id'),
      });
      return rows.map((row) => ({ ...presentEntity(row), business_units: row.business_units }));
    },

    async create(caller: Caller, input: { name: string; description?: string | null | undefined }): Promise<Static<typeof LegalEntityView>> {
      requireClientAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
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
      requireClientAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        if ((await findLegalEntityId(trx, enterpriseId, legalEntityId)) === null) throw notFound('Legal entity');
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
  };
}

export type LegalEntitiesService = ReturnType<typeof createLegalEntitiesService>;
