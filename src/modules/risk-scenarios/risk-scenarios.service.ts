import type { Static } from 'typebox';
import type { Caller } from '../../platform/auth/principal.js';
import { recordChange } from '../../platform/audit/record-change.js';
import { diffFields, isEmptyDiff } from '../../platform/changes/field-diff.js';
import { archiveVersioned, updateVersioned } from '../../platform/changes/versioned-change.js';
import type { Executor } from '../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../platform/db/transaction.js';
import { loadPage, pageRequest, type Page } from '../../platform/http/pagination.js';
import { invalidState } from '../../platform/errors/app-error.js';
import type { ChangeTerms } from '../../platform/versions/change-terms.js';
import { versioned, versionState, type Versioned } from '../../platform/versions/resource-state.js';
import {
  archiveRiskScenario,
  countRiskScenarios,
  findRiskScenarioForUpdate,
  insertRiskScenarios,
  listRiskScenarios,
  updateRiskScenario,
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
    async add(
      caller: Caller,
      input: { name: string; category: string; description?: string | null | undefined },
      terms: ChangeTerms,
    ): Promise<RiskScenario> {
      requireCatalogueEditor(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const [created] = await insertRiskScenarios(trx, enterpriseId, [
          { name: input.name, category: input.category, description: input.description || null },
        ]);
        await recordChange(trx, caller, {
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
      terms: ChangeTerms,
    ): Promise<Versioned<RiskScenario>> {
      requireCatalogueEditor(caller);
      const enterpriseId = caller.enterpriseId;
      const wanted = {
        name: input.name,
        category: input.category,
        description: input.description === undefined ? undefined : input.description || null,
      };
      return inTransaction(db, async ({ trx }) => {
        const { row } = await updateVersioned(trx, caller, terms, {
          noun: 'Risk scenario',
          lock: () => findRiskScenarioForUpdate(trx, enterpriseId, id),
          refuse: (scenario) => {
            if (scenario.archived_at !== null) throw invalidState('An archived risk scenario cannot be changed');
          },
          diff: (scenario) => {
            const diff = diffFields<VersionedRiskScenarioRow>(scenario, wanted);
            return isEmptyDiff(diff) ? null : diff;
          },
          write: (_scenario, diff) => updateRiskScenario(trx, enterpriseId, id, diff.set),
          audit: (_scenario, _updated, diff) => ({ entityType: 'risk_scenario', entityId: id, details: { changes: diff.set, previous: diff.previous } }),
        });
        return versioned(presentScenario(row), versionState(row.row_version));
      });
    },

    /** BRAs that have the scenario keep it (and their snapshots its name); new links are refused. */
    async archive(caller: Caller, id: string, terms: ChangeTerms): Promise<Versioned<RiskScenario>> {
      requireCatalogueEditor(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const { row } = await archiveVersioned(trx, caller, terms, {
          noun: 'Risk scenario',
          lock: () => findRiskScenarioForUpdate(trx, enterpriseId, id),
          isArchived: (scenario) => scenario.archived_at !== null,
          again: { refuse: 'The risk scenario is archived already' },
          archive: () => archiveRiskScenario(trx, enterpriseId, id, caller.userId, new Date()),
          audit: (scenario) => ({ entityType: 'risk_scenario', entityId: id, details: { change: 'archived', name: scenario.name } }),
        });
        return versioned(presentScenario(row), versionState(row.row_version));
      });
    },
  };
}

export type RiskScenariosService = ReturnType<typeof createRiskScenariosService>;
