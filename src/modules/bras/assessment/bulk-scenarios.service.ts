import type { Caller } from '../../../platform/auth/principal.js';
import type { Executor } from '../../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../../platform/db/transaction.js';
import type { ChangeTerms } from '../../../platform/versions/change-terms.js';
import { AppError } from '../../../platform/errors/app-error.js';
import { lockedBra, requireEditable } from '../access.js';
import { recordBraChange, scenarioAdded, touchBra } from '../changes.js';
import { listScenarioRows } from '../answer/detail.repository.js';
import { toScenarioView } from '../answer/detail.presenter.js';
import type { AddScenariosBody } from './bulk-scenarios.schemas.js';
import { findCatalogueScenarios, insertScenarioLinks, linkedScenarioIds } from './bulk-scenarios.repository.js';
import { requireBraEditor } from '../bras.policy.js';
import type { ScenarioView } from '../bras.schemas.js';

const rejected = (code: 'INVALID_REFERENCE' | 'CONFLICT', message: string, ids: string[]) =>
  new AppError(code, message, { field: 'risk_scenario_ids', risk_scenario_ids: ids });

/**
 * Adding many catalogue scenarios to a BRA (issue 35): the single add's rules (content.service.ts
 * addScenario) for every id, checked before anything is written, in one transaction: all are added or
 * none. One audit entry per scenario, as if each had been added alone; the draft moves once.
 */
export function createBulkScenariosService({ db }: { db: Executor }) {
  return {
    async add(caller: Caller, braId: string, body: AddScenariosBody, terms: ChangeTerms): Promise<ScenarioView[]> {
      const ids = body.risk_scenario_ids;
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const bra = await lockedBra(trx, caller, braId, requireBraEditor, terms);
        requireEditable(bra, 'Scenarios can be added');
        const found = new Map((await findCatalogueScenarios(trx, bra.enterprise_id, ids)).map((row) => [row.id, row]));
        const unknown = ids.filter((id) => !found.has(id));
        if (unknown.length > 0) {
          throw rejected('INVALID_REFERENCE', 'risk_scenario_ids names scenarios that are not in your enterprise catalogue; nothing was added', unknown);
        }
        const archived = ids.filter((id) => found.get(id)!.archived_at !== null);
        if (archived.length > 0) throw rejected('INVALID_REFERENCE', 'risk_scenario_ids names archived risk scenarios; nothing was added', archived);
        const present = await linkedScenarioIds(trx, bra.enterprise_id, bra.id, ids);
        if (present.length > 0) throw rejected('CONFLICT', 'Some of these risk scenarios are already part of the BRA; nothing was added', present);
        // A concurrent add of one of them still meets bra_risk_scenarios_scenario_key (409), and this rolls back.
        const links = await insertScenarioLinks(trx, bra.enterprise_id, {
          bra_id: bra.id,
          risk_scenario_ids: ids,
          included: body.included ?? true,
          created_by: caller.userId,
        });
        for (const link of links) {
          await recordBraChange(trx, caller, bra, { ...scenarioAdded(link), bulk: true });
        }
        await touchBra(trx, caller, bra, 'scenarios added');
        const rows = new Map((await listScenarioRows(trx, bra.enterprise_id, bra.id)).map((row) => [row.risk_scenario_id, row]));
        return ids.map((id) => toScenarioView(rows.get(id)!));
      });
    },
  };
}

export type BulkScenariosService = ReturnType<typeof createBulkScenariosService>;
