import type { Static } from 'typebox';
import type { Caller } from '../../platform/auth/principal.js';
import { auditFrom } from '../../platform/audit/audit-events.js';
import { writeAudit } from '../../platform/audit/audit-writer.js';
import type { Executor } from '../../platform/db/schema.js';
import { inTransaction, joinRequestWork } from '../../platform/db/transaction.js';
import { requireCurrentVersion, servedVersion } from '../../platform/http/conditional/preconditions.js';
import { loadPage, pageRequest, type Page } from '../../platform/http/pagination.js';
import { invalidState, notFound } from '../../platform/http/errors.js';
import {
  archiveRiskScenario,
  countRiskScenarios,
  findRiskScenarioForUpdate,
  insertRiskScenarios,
  listRiskScenarios,
  updateRiskScenario,
  type NewRiskScenario,
  type VersionedRiskScenarioRow,
} from './risk-scenarios.repository.js';
import { requireCatalogueEditor, requireCatalogueReader } from './risk-scenarios.policy.js';
import type { RiskScenarioView } from './risk-scenarios.schemas.js';
import { STARTER_CATALOGUE } from './starter-catalogue.js';

type RiskScenario = Static<typeof RiskScenarioView>;

// The wire shape of a scenario after a change: its version travels in the ETag, not in the body.
const presentScenario = (row: VersionedRiskScenarioRow): RiskScenario => ({
  id: row.id,
  name: row.name,
  category: row.category,
  description: row.description,
  created_at: row.created_at,
  archived_at: row.archived_at,
});

export interface RiskScenariosServiceDeps {
  /** The database, or the caller's open transaction to join. */
  db: Executor;
}

export function createRiskScenariosService({ db }: RiskScenariosServiceDeps) {
  return {
    /**
     * Gives a new enterprise its starter catalogue. Bound to the caller's transaction (the enterprise's
     * creation and its audit entry own it), so it makes no audit entry per scenario; one statement.
     */
    async seedStarterCatalogue(enterpriseId: string): Promise<void> {
      await insertRiskScenarios(db, enterpriseId, STARTER_CATALOGUE);
    },

    /** The catalogue is enterprise-wide reference data: every member role reads all of it (D5). */
    async list(
      caller: Caller,
      query: { category?: string | undefined; include_archived?: boolean | undefined; page?: number | undefined; page_size?: number | undefined },
    ): Promise<Page<RiskScenario>> {
      requireCatalogueReader(caller);
      const enterpriseId = caller.enterpriseId;
      const filter = { category: query.category, includeArchived: query.include_archived };
      return loadPage(
        pageRequest(query),
        () => countRiskScenarios(db, enterpriseId, filter),
        (limit, offset) => listRiskScenarios(db, enterpriseId, filter, limit, offset),
      );
    },

    /**
     * Client admins only. The category is free text: the starter catalogue uses the Basel event types,
     * but an enterprise may keep its own taxonomy. A duplicate name is refused by risk_scenarios_name_key
     * (409), which rolls the transaction back, audit entry included.
     */
    async add(caller: Caller, input: { name: string; category: string; description?: string | null | undefined }): Promise<RiskScenario> {
      requireCatalogueEditor(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(joinRequestWork(db, caller), async ({ trx }) => {
        const [created] = await insertRiskScenarios(trx, enterpriseId, [
          { name: input.name, category: input.category, description: input.description || null },
        ]);
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
          action: 'create',
          entityType: 'risk_scenario',
          entityId: created!.id,
          details: { name: created!.name, category: created!.category, description: created!.description },
        });
        return created!;
      });
    },

    async update(
      caller: Caller,
      id: string,
      input: { name?: string | undefined; category?: string | undefined; description?: string | null | undefined },
    ): Promise<RiskScenario> {
      requireCatalogueEditor(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const scenario = await findRiskScenarioForUpdate(trx, enterpriseId, id);
        if (scenario === undefined) throw notFound('Risk scenario');
        requireCurrentVersion(caller, scenario.row_version);
        if (scenario.archived_at !== null) throw invalidState('An archived risk scenario cannot be changed');
        const changes: Partial<NewRiskScenario> = {};
        const previous: Record<string, unknown> = {};
        for (const field of ['name', 'category'] as const) {
          const value = input[field];
          if (value !== undefined && value !== scenario[field]) {
            changes[field] = value;
            previous[field] = scenario[field];
          }
        }
        if (input.description !== undefined && (input.description || null) !== scenario.description) {
          changes.description = input.description || null;
          previous['description'] = scenario.description;
        }
        if (Object.keys(changes).length === 0) {
          servedVersion(caller, scenario.row_version);
          return presentScenario(scenario);
        }
        const updated = await updateRiskScenario(trx, enterpriseId, id, changes);
        servedVersion(caller, updated.row_version);
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
          action: 'update',
          entityType: 'risk_scenario',
          entityId: id,
          details: { changes, previous },
        });
        return presentScenario(updated);
      });
    },

    /** BRAs that have the scenario keep it (and their snapshots its name); new links are refused. */
    async archive(caller: Caller, id: string): Promise<RiskScenario> {
      requireCatalogueEditor(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const scenario = await findRiskScenarioForUpdate(trx, enterpriseId, id);
        if (scenario === undefined) throw notFound('Risk scenario');
        requireCurrentVersion(caller, scenario.row_version);
        if (scenario.archived_at !== null) throw invalidState('The risk scenario is archived already');
        const archived = await archiveRiskScenario(trx, enterpriseId, id, caller.userId, new Date());
        servedVersion(caller, archived.row_version);
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
          action: 'update',
          entityType: 'risk_scenario',
          entityId: id,
          details: { change: 'archived', name: scenario.name },
        });
        return presentScenario(archived);
      });
    },
  };
}

export type RiskScenariosService = ReturnType<typeof createRiskScenariosService>;
