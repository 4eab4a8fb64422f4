import type { Static } from 'typebox';
import type { SubscriptionTier } from '../../../config.js';
import { trailOf } from '../../../platform/audit/audit-events.js';
import { recordChange } from '../../../platform/audit/record-change.js';
import type { Caller } from '../../../platform/auth/principal.js';
import type { Executor } from '../../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../../platform/db/transaction.js';
import type { ChangeTerms } from '../../../platform/versions/change-terms.js';
import { lockForChange } from '../../../platform/changes/versioned-change.js';
import { versioned, versionState, type Versioned } from '../../../platform/versions/resource-state.js';
import { notFound } from '../../../platform/errors/app-error.js';
import { loadPage, pageRequest, type PaginationInfo } from '../../../platform/http/pagination.js';
import { createRiskScenariosService } from '../../risk-scenarios/risk-scenarios.service.js';
import { createRiskAppetiteService } from '../../governance/risk-appetite.service.js';
import { createStarterLibraryService } from '../../controls/starter-library/starter-library.service.js';
import { createHealthService } from '../../health/health.service.js';
import type {
  CreateEnterpriseBody,
  CreatedEnterprise,
  EnterpriseListItem,
  ListEnterprisesQuery,
  UpdateEnterpriseBody,
  UpdatedEnterprise,
} from './enterprises.schemas.js';
import {
  countEnterprises,
  findEnterprise,
  findEnterpriseForUpdate,
  insertEnterprise,
  listEnterprises,
  updateEnterprise,
} from './enterprises.repository.js';
import { monthlyRevenueCents } from './mrr.js';
import { enterpriseAbilities, requireEnterpriseManager } from '../admin.policy.js';

export interface EnterprisesServiceDeps {
  /** The database, or the caller's open transaction to join. */
  db: Executor;
  tierPricesCents: Record<SubscriptionTier, number>;
}

/**
 * 404 for an enterprise that does not exist, whatever its status. An inactive enterprise stays
 * administrable: 3.4 gives `inactive` no side effects beyond the stored value (a billing state), so its
 * users can still be listed, added and deactivated.
 */
export async function requireEnterpriseExists(db: Executor, enterpriseId: string) {
  const enterprise = await findEnterprise(db, enterpriseId);
  if (enterprise === undefined) throw notFound('Enterprise');
  return enterprise;
}

export function createEnterprisesService({ db, tierPricesCents }: EnterprisesServiceDeps) {
  return {
    async list(
      caller: Caller,
      query: Static<typeof ListEnterprisesQuery>,
    ): Promise<{ data: Static<typeof EnterpriseListItem>[]; pagination: PaginationInfo }> {
      requireEnterpriseManager(caller);
      const filter = { status: query.status };
      const page = await loadPage(
        pageRequest(query),
        () => countEnterprises(db, filter),
        (limit, offset) => listEnterprises(db, filter, limit, offset),
      );
      // The page's health in one statement, whatever the page size.
      const health = await createHealthService({ db }).scoresOf(page.data.map((row) => row.id));
      return {
        pagination: page.pagination,
        data: page.data.map((row) => ({
          id: row.id,
          name: row.name,
          country: row.country,
          registration_number: row.registration_number,
          status: row.status,
          subscription_tier: row.subscription_tier,
          mrr_cents: monthlyRevenueCents(row, tierPricesCents),
          user_count: Number(row.user_count ?? 0),
          bra_count: Number(row.bra_count ?? 0),
          health_score: health.get(row.id)!.score,
          health_status: health.get(row.id)!.status,
          created_at: row.created_at,
          updated_at: row.updated_at,
          abilities: enterpriseAbilities(caller),
        })),
      };
    },

    /** The enterprise, its default appetite and its starter scenario catalogue commit together or not at all. */
    async create(caller: Caller, body: Static<typeof CreateEnterpriseBody>, terms: ChangeTerms): Promise<Static<typeof CreatedEnterprise>> {
      requireEnterpriseManager(caller);
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const enterprise = await insertEnterprise(trx, {
          name: body.name,
          country: body.country,
          registration_number: body.registration_number ?? null,
        });
        // The governance module owns appetites: its service, bound to this transaction, writes the default.
        const appetite = await createRiskAppetiteService({ db: trx }).createEnterpriseDefault(enterprise.id, caller.userId);
        await createRiskScenariosService({ db: trx }).seedStarterCatalogue(enterprise.id);
        // After the catalogue, whose scenarios the library's controls are linked to.
        const library = body.starter_library === true ? await createStarterLibraryService({ db: trx }).seed(enterprise.id, caller.userId) : null;
        await recordChange(trx, caller, {
          enterpriseId: trailOf(caller),
          action: 'create',
          entityType: 'enterprise',
          entityId: enterprise.id,
          details: {
            name: enterprise.name,
            country: enterprise.country,
            registration_number: enterprise.registration_number,
            default_risk_appetite_id: appetite.id,
            ...(library === null ? {} : { starter_library: { library: library.library, key_controls: library.key_controls, sub_controls: library.sub_controls } }),
          },
        });
        return enterprise;
      });
    },

    async update(
      caller: Caller,
      enterpriseId: string,
      body: Static<typeof UpdateEnterpriseBody>,
      terms: ChangeTerms,
    ): Promise<Versioned<Static<typeof UpdatedEnterprise>>> {
      requireEnterpriseManager(caller);
      return inTransaction(db, async ({ trx }) => {
        const before = await lockForChange({ noun: 'Enterprise', lock: () => findEnterpriseForUpdate(trx, enterpriseId) }, terms);
        const after = await updateEnterprise(trx, enterpriseId, {
          status: body.status,
          subscription_tier: body.subscription_tier,
        });
        await recordChange(trx, caller, {
          enterpriseId: trailOf(caller),
          action: 'update',
          entityType: 'enterprise',
          entityId: enterpriseId,
          details: {
            before: { status: before.status, subscription_tier: before.subscription_tier },
            after: { status: after.status, subscription_tier: after.subscription_tier },
          },
        });
        return versioned(after, versionState(after.row_version));
      });
    },
  };
}

export type EnterprisesService = ReturnType<typeof createEnterprisesService>;
