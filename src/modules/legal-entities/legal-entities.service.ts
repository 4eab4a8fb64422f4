import type { Static } from 'typebox';
import type { Caller } from '../../platform/auth/principal.js';
import { requireMember } from '../../platform/auth/policies.js';
import { auditFrom } from '../../platform/audit/audit-events.js';
import { writeAudit } from '../../platform/audit/audit-writer.js';
import type { Executor } from '../../platform/db/schema.js';
import { inTransaction, joinRequestWork } from '../../platform/db/transaction.js';
import { notFound } from '../../platform/http/errors.js';
import {
  findLegalEntity,
  insertBusinessUnit,
  insertLegalEntity,
  listLegalEntities,
} from './legal-entities.repository.js';
import { legalEntityListScope, requireLegalEntityAdmin } from './legal-entities.policy.js';
import type { BusinessUnitView, LegalEntityListItem, LegalEntityView } from './legal-entities.schemas.js';

// The wire shape of a legal entity (its enterprise_id stays inside).
const presentEntity = (row: { id: string; name: string; description: string | null; created_at: Date }): Static<typeof LegalEntityView> => ({
  id: row.id,
  name: row.name,
  description: row.description,
  created_at: row.created_at,
});

export interface LegalEntitiesServiceDeps {
  /** The database, or the caller's open transaction to join. */
  db: Executor;
}

export function createLegalEntitiesService({ db }: LegalEntitiesServiceDeps) {
  return {
    /** What the caller sees of the organisation (legalEntityListScope). */
    async listVisible(caller: Caller): Promise<Static<typeof LegalEntityListItem>[]> {
      requireMember(caller);
      const rows = await listLegalEntities(db, caller.enterpriseId, legalEntityListScope(caller));
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
        if ((await findLegalEntity(trx, enterpriseId, legalEntityId)) === undefined) throw notFound('Legal entity');
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
