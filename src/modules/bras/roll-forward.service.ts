import type { Caller } from '../../platform/auth/principal.js';
import type { Executor } from '../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../platform/db/transaction.js';
import type { ChangeTerms } from '../../platform/versions/change-terms.js';
import { emitEvent } from '../../platform/events/outbox.js';
import { invalidState } from '../../platform/errors/app-error.js';
import { findBusinessUnit, findLegalEntity } from '../legal-entities/legal-entities.repository.js';
import { lockedBra } from './bra-access.js';
import { recordBraChange } from './bra-changes.js';
import { takeSnapshot } from './bra-snapshots.service.js';
import { insertBra } from './bras.repository.js';
import { requireBraRoller } from './bras.policy.js';
import { APPROVED, hasStatus, OPENING_STATUS } from './bras.lifecycle.js';
import { copyControlLinks, copyScenarioLinks, listOpenActions } from './roll-forward.repository.js';
import type { RollForwardBody, RolledForwardView } from './roll-forward.schemas.js';

/**
 * Roll-forward: the next period of an approved BRA (bras.roll_forward). One transaction: the new draft, its
 * scenario and control links copied (ratings are not: each link carries the old residual rating as a
 * reference), its `created` snapshot, the audit entries (the BRA's `create`, then one `update` per scenario
 * and control link added, as when they are added one by one, D10.3) and the `bra.created` event.
 */
export function createRollForwardService({ db }: { db: Executor }) {
  return {
    async rollForward(caller: Caller, braId: string, body: RollForwardBody, terms: ChangeTerms): Promise<RolledForwardView> {
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const source = await lockedBra(trx, caller, braId, requireBraRoller, terms);
        if (!hasStatus(source, APPROVED)) throw invalidState(`Only an approved BRA can be rolled forward; it is ${source.status}`);
        const enterpriseId = source.enterprise_id;
        const entity = await findLegalEntity(trx, enterpriseId, source.legal_entity_id);
        const unit = source.business_unit_id === null ? null : await findBusinessUnit(trx, enterpriseId, source.business_unit_id);
        if (entity?.archived_at != null || (unit !== null && unit?.archived_at != null)) {
          throw invalidState('The legal entity or business unit of this BRA is archived: a new BRA cannot take it');
        }
        const assessor = body.assessor ?? source.assessor;
        const { id } = await insertBra(trx, enterpriseId, {
          name: body.name,
          description: source.description,
          legal_entity_id: source.legal_entity_id,
          business_unit_id: source.business_unit_id,
          period: body.period,
          assessor,
          start_date: body.start_date ?? null,
          created_by: caller.userId,
          rolled_from_bra_id: source.id,
        });
        const target = { braId: id, createdBy: caller.userId };
        const scenarios = await copyScenarioLinks(trx, enterpriseId, { braId: source.id }, target);
        const controls = await copyControlLinks(trx, enterpriseId, { braId: source.id }, target);
        const snapshot = await takeSnapshot(trx, { enterpriseId, braId: id, takenBy: caller.userId }, 'created');
        const bra = { id, enterprise_id: enterpriseId, name: body.name };
        await recordBraChange(
          trx,
          caller,
          bra,
          {
            legal_entity_id: source.legal_entity_id,
            business_unit_id: source.business_unit_id,
            period: body.period,
            assessor,
            snapshot_id: snapshot.id,
            rolled_from_bra_id: source.id,
            rolled_from_snapshot_id: source.snapshot_id,
          },
          'create',
        );
        for (const link of scenarios) {
          await recordBraChange(trx, caller, bra, {
            change: 'scenario_added',
            bra_risk_scenario_id: link.id,
            risk_scenario_id: link.risk_scenario_id,
            included: link.included,
            cause: 'roll_forward',
          });
        }
        for (const link of controls) {
          await recordBraChange(trx, caller, bra, {
            change: 'control_linked',
            control_link_id: link.id,
            sub_control_id: link.sub_control_id,
            bra_risk_scenario_id: link.bra_risk_scenario_id,
            cause: 'roll_forward',
          });
        }
        await emitEvent(trx, {
          enterpriseId,
          type: 'bra.created',
          data: { bra_id: id, name: body.name, legal_entity_id: source.legal_entity_id, business_unit_id: source.business_unit_id, status: OPENING_STATUS, rolled_from_bra_id: source.id },
        });
        const newLinkOf = new Map(scenarios.map((link) => [link.risk_scenario_id, link.id]));
        const actions = await listOpenActions(trx, enterpriseId, source.id);
        return {
          ...snapshot.content,
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
