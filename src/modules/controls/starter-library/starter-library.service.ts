import type { Transaction } from 'kysely';
import { auditFrom } from '../../../platform/audit/audit-events.js';
import { writeAudit } from '../../../platform/audit/audit-writer.js';
import type { Caller } from '../../../platform/auth/principal.js';
import type { DB, Executor } from '../../../platform/db/schema.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { invalidState } from '../../../platform/errors/app-error.js';
import { findRiskScenariosByName } from '../../risk-scenarios/risk-scenarios.repository.js';
import { requireControlLibraryAdmin } from '../controls.policy.js';
import { STARTER_LIBRARY, STARTER_LIBRARY_NAME } from './starter-library.js';
import { insertKeyControls, insertUntestedSubControls, linkKeyControlsToScenarios, recordLibraryLoad } from './starter-library.repository.js';

export interface LoadedLibrary {
  library: string;
  key_controls: number;
  sub_controls: number;
  risk_scenario_links: number;
  loaded_at: Date;
}

/**
 * Writes the starter library into the enterprise: its key controls, their untested sub-controls and their
 * links to the scenarios of the enterprise's catalogue that carry the library's scenario names (a scenario
 * renamed or never created is simply not linked). null when the library was already loaded.
 */
async function writeStarterLibrary(trx: Transaction<DB>, enterpriseId: string, userId: string): Promise<LoadedLibrary | null> {
  const load = await recordLibraryLoad(trx, {
    enterprise_id: enterpriseId,
    library: STARTER_LIBRARY_NAME,
    key_control_count: STARTER_LIBRARY.length,
    loaded_by: userId,
  });
  if (load === undefined) return null;
  const keyControlIds = await insertKeyControls(trx, enterpriseId, userId, STARTER_LIBRARY);
  const subControls = STARTER_LIBRARY.flatMap((control, at) =>
    control.subControls.map(([name, description]) => ({ key_control_id: keyControlIds[at]!, name, description })),
  );
  const subControlCount = await insertUntestedSubControls(trx, enterpriseId, userId, subControls);
  const scenarios = await findRiskScenariosByName(trx, enterpriseId, [...new Set(STARTER_LIBRARY.flatMap((control) => control.mitigates))]);
  const scenarioIds = new Map(scenarios.map((scenario) => [scenario.name.toLowerCase(), scenario.id]));
  const links = STARTER_LIBRARY.flatMap((control, at) =>
    control.mitigates.flatMap((name) => {
      const riskScenarioId = scenarioIds.get(name.toLowerCase());
      return riskScenarioId === undefined ? [] : [{ key_control_id: keyControlIds[at]!, risk_scenario_id: riskScenarioId }];
    }),
  );
  const linkCount = await linkKeyControlsToScenarios(trx, enterpriseId, links);
  return {
    library: STARTER_LIBRARY_NAME,
    key_controls: keyControlIds.length,
    sub_controls: subControlCount,
    risk_scenario_links: linkCount,
    loaded_at: load.loaded_at,
  };
}

/** The starter control library: loaded by a client admin once, or with the enterprise by a super admin. */
export function createStarterLibraryService({ db }: { db: Executor }) {
  return {
    /** POST /controls/starter-library: once per enterprise (409 INVALID_STATE after), one audit entry for the load. */
    async load(caller: Caller): Promise<LoadedLibrary> {
      requireControlLibraryAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const loaded = await writeStarterLibrary(trx, enterpriseId, caller.userId);
        if (loaded === null) throw invalidState('The starter control library has already been loaded into this enterprise');
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
          action: 'create',
          entityType: 'control',
          entityId: null,
          details: { control_kind: 'starter_library', ...loaded, loaded_at: loaded.loaded_at.toISOString() },
        });
        return loaded;
      });
    },

    /**
     * With a new enterprise (POST /admin/enterprises with starter_library): bound to the creating transaction,
     * audited by the enterprise's own entry. The caller has just created the enterprise, so it cannot be loaded yet.
     */
    async seed(enterpriseId: string, userId: string): Promise<LoadedLibrary> {
      return inTransaction(db, async ({ trx }) => {
        const loaded = await writeStarterLibrary(trx, enterpriseId, userId);
        if (loaded === null) throw invalidState('The starter control library has already been loaded into this enterprise');
        return loaded;
      });
    },
  };
}

export type StarterLibraryService = ReturnType<typeof createStarterLibraryService>;
