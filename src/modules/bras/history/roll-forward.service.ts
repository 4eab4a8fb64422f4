import type { Transaction } from 'kysely';
import type { Caller } from '../../../platform/auth/principal.js';
import type { DB, Executor } from '../../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../../platform/db/transaction.js';
import type { ChangeTerms } from '../../../platform/versions/change-terms.js';
import { invalidState } from '../../../platform/errors/app-error.js';
import { lockedBra } from '../access.js';
import { APPROVED, hasStatus } from '../bras.lifecycle.js';
import { requireBraRoller } from '../bras.policy.js';
import type { BraRow } from '../bras.repository.js';
import { openBra, type Filling } from './open-bra.js';
import { copyControlLinks, copyScenarioLinks, listOpenActions } from './roll-forward.repository.js';
import type { RollForwardBody, RolledForwardView } from './roll-forward.schemas.js';

/**
 * The source's scenario and control links copied into the new BRA (ratings are not: each link carries the old
 * residual rating as a reference), each an `update` of the BRA to audit as when they are added one by one (D10.3).
 */
async function copyLinks(trx: Transaction<DB>, source: BraRow, target: { braId: string; createdBy: string }): Promise<Filling<CopiedScenario[]>> {
  const scenarios = await copyScenarioLinks(trx, source.enterprise_id, { braId: source.id }, target);
  const controls = await copyControlLinks(trx, source.enterprise_id, { braId: source.id }, target);
  return {
    filled: scenarios,
    changes: [
      ...scenarios.map((link) => ({
        change: 'scenario_added',
        bra_risk_scenario_id: link.id,
        risk_scenario_id: link.risk_scenario_id,
        included: link.included,
        cause: 'roll_forward',
      })),
      ...controls.map((link) => ({
        change: 'control_linked',
        control_link_id: link.id,
        sub_control_id: link.sub_control_id,
        bra_risk_scenario_id: link.bra_risk_scenario_id,
        cause: 'roll_forward',
      })),
    ],
  };
}

type CopiedScenario = Awaited<ReturnType<typeof copyScenarioLinks>>[number];

/**
 * Roll-forward: the next period of an approved BRA (bras.roll_forward). One transaction, opened as POST /bras
 * opens a BRA (open-bra.ts: its place must still be active, 400 otherwise): the new draft with the source's
 * links copied (copyLinks), its `created` snapshot, the audit entries (the BRA's `create`, then one `update`
 * per scenario and control link) and the `bra.created` event.
 */
export function createRollForwardService({ db }: { db: Executor }) {
  return {
    async rollForward(caller: Caller, braId: string, body: RollForwardBody, terms: ChangeTerms): Promise<RolledForwardView> {
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const source = await lockedBra(trx, caller, braId, requireBraRoller, terms);
        if (!hasStatus(source, APPROVED)) throw invalidState(`Only an approved BRA can be rolled forward; it is ${source.status}`);
        const opened = await openBra(
          trx,
          caller,
          {
            name: body.name,
            description: source.description,
            legal_entity_id: source.legal_entity_id,
            business_unit_id: source.business_unit_id,
            period: body.period,
            assessor: body.assessor ?? source.assessor,
            start_date: body.start_date ?? null,
            rolledFrom: { braId: source.id, snapshotId: source.snapshot_id },
          },
          (braId) => copyLinks(trx, source, { braId, createdBy: caller.userId }),
        );
        const scenarios = opened.filled ?? [];
        const newLinkOf = new Map(scenarios.map((link) => [link.risk_scenario_id, link.id]));
        const actions = await listOpenActions(trx, source.enterprise_id, source.id);
        return {
          ...opened.content,
          open_actions: actions.map((action) => ({
            ...action,
            new_bra_risk_scenario_id: action.risk_scenario_id === null ? null : (newLinkOf.get(action.risk_scenario_id) ?? null),
          })),
        };
      });
    },
  };
}

export type RollForwardService = ReturnType<typeof createRollForwardService>;
