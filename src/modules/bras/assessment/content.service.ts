import { recordChange } from '../../../platform/audit/record-change.js';
import type { Caller } from '../../../platform/auth/principal.js';
import type { Executor } from '../../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../../platform/db/transaction.js';
import { AppError, notFound } from '../../../platform/errors/app-error.js';
import type { ChangeTerms } from '../../../platform/versions/change-terms.js';
import { versioned, type Versioned } from '../../../platform/versions/resource-state.js';
import { braStateAfter, lockedBra, readableBra, requireEditable } from '../access.js';
import { recordBraChange, scenarioAdded, touchBra } from '../changes.js';
import { listControlRows, listScenarioRows } from '../answer/detail.repository.js';
import { toControlView, toScenarioView } from '../answer/detail.presenter.js';
import { findSubControl } from '../../controls/library/sub-controls.repository.js';
import { findRiskScenario } from '../../risk-scenarios/risk-scenarios.repository.js';
import {
  deleteControlLink,
  findControlLink,
  findScenarioLink,
  insertControlLink,
  insertScenarioLink,
  listRatings,
  recordRating,
  setScenarioIncluded,
} from './content.repository.js';
import type { AddScenarioBody, LinkControlBody, RecordRatingBody, RatingView } from './content.schemas.js';
import { requireBraEditor } from '../bras.policy.js';
import type { ControlView, ScenarioView } from '../bras.schemas.js';
import { rateRisk } from '../risk-rating.js';
import { endOutgrownAcceptance } from '../acceptance/outgrown-acceptance.js';
import { announceResidualCrossing } from './appetite-crossing.js';
import { withCreatorNames } from '../answer/people.js';

const invalidReference = (field: string, why: string) => new AppError('INVALID_REFERENCE', `${field} ${why}`, { field });

/**
 * What a BRA holds: scenario links (D6.4), ratings (D6.5) and control links (D6.6). Changes need the
 * editor's rights and an editable BRA, take the BRA's row lock, move a draft to in_progress, and are
 * audited in their transaction (D10.3: links as `update` of the `bra`, ratings as `create` of a `bra_rating`).
 */
export function createBraContentService({ db }: { db: Executor }) {
  return {
    async listScenarios(caller: Caller, braId: string): Promise<ScenarioView[]> {
      const bra = await readableBra(db, caller, braId);
      return (await listScenarioRows(db, bra.enterprise_id, bra.id)).map(toScenarioView);
    },

    async addScenario(caller: Caller, braId: string, body: AddScenarioBody, terms: ChangeTerms): Promise<ScenarioView> {
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const bra = await lockedBra(trx, caller, braId, requireBraEditor, terms);
        requireEditable(bra, 'Scenarios can be added');
        const scenario = await findRiskScenario(trx, bra.enterprise_id, body.risk_scenario_id);
        if (scenario === undefined) {
          throw invalidReference('risk_scenario_id', 'does not refer to a risk scenario of your enterprise');
        }
        // BRAs that have an archived scenario keep it; it is no longer offered to others.
        if (scenario.archived_at !== null) throw invalidReference('risk_scenario_id', 'refers to an archived risk scenario');
        // A scenario already in the BRA: bra_risk_scenarios_scenario_key → 409.
        const link = await insertScenarioLink(trx, bra.enterprise_id, {
          bra_id: bra.id,
          risk_scenario_id: body.risk_scenario_id,
          included: body.included ?? true,
          created_by: caller.userId,
        });
        const [row] = await listScenarioRows(trx, bra.enterprise_id, bra.id, link.id);
        await recordBraChange(trx, caller, bra, scenarioAdded(link));
        await touchBra(trx, caller, bra, 'scenario added');
        return toScenarioView(row!);
      });
    },

    /** The link as it now is, with its BRA's state (the ETag: a link is part of its BRA). */
    async updateScenario(caller: Caller, braId: string, linkId: string, included: boolean, terms: ChangeTerms): Promise<Versioned<ScenarioView>> {
      return inTransaction(db, async ({ trx }) => {
        const bra = await lockedBra(trx, caller, braId, requireBraEditor, terms);
        const link = await findScenarioLink(trx, bra.enterprise_id, bra.id, linkId);
        if (link === undefined) throw notFound('Scenario link');
        requireEditable(bra, 'Scenarios can be changed');
        if (link.included !== included) {
          await setScenarioIncluded(trx, bra.enterprise_id, link.id, included);
          await touchBra(trx, caller, bra, 'scenario changed');
          await recordBraChange(trx, caller, bra, { change: included ? 'scenario_included' : 'scenario_excluded', bra_risk_scenario_id: link.id });
        }
        const [row] = await listScenarioRows(trx, bra.enterprise_id, bra.id, link.id);
        return versioned(toScenarioView(row!), await braStateAfter(trx, bra));
      });
    },

    async listRatings(caller: Caller, braId: string, history: boolean): Promise<RatingView[]> {
      const bra = await readableBra(db, caller, braId);
      return withCreatorNames(db, await listRatings(db, bra.enterprise_id, bra.id, history));
    },

    async recordRating(caller: Caller, braId: string, body: RecordRatingBody, terms: ChangeTerms): Promise<RatingView> {
      const scores = rateRisk(body.impact_score, body.likelihood_score);
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const bra = await lockedBra(trx, caller, braId, requireBraEditor, terms);
        requireEditable(bra, 'Ratings can be recorded');
        if ((await findScenarioLink(trx, bra.enterprise_id, bra.id, body.bra_risk_scenario_id)) === undefined) {
          throw invalidReference('bra_risk_scenario_id', 'does not refer to a scenario link of this BRA');
        }
        const { rating, supersededId, supersededScore } = await recordRating(trx, bra.enterprise_id, {
          bra_id: bra.id,
          bra_risk_scenario_id: body.bra_risk_scenario_id,
          rating_type: body.rating_type,
          justification: body.justification || null,
          created_by: caller.userId,
          ...scores,
        });
        await recordChange(trx, caller, {
          enterpriseId: bra.enterprise_id,
          action: 'create',
          entityType: 'bra_rating',
          entityId: rating.id,
          details: {
            bra_id: bra.id,
            bra_name: bra.name,
            bra_risk_scenario_id: rating.bra_risk_scenario_id,
            rating_type: rating.rating_type,
            ...scores,
            justification: rating.justification,
            supersedes: supersededId,
          },
        });
        await touchBra(trx, caller, bra, 'rating recorded');
        await announceResidualCrossing(trx, bra, rating, supersededScore);
        await endOutgrownAcceptance(trx, caller, bra, rating);
        const [named] = await withCreatorNames(trx, [rating]);
        return named!;
      });
    },

    async listControls(caller: Caller, braId: string): Promise<ControlView[]> {
      const bra = await readableBra(db, caller, braId);
      return (await listControlRows(db, bra.enterprise_id, bra.id)).map(toControlView);
    },

    /**
     * The sub-control must be of the enterprise and not archived, the scenario link (when given) of this
     * BRA (400 INVALID_REFERENCE otherwise).
     */
    async linkControl(caller: Caller, braId: string, body: LinkControlBody, terms: ChangeTerms): Promise<ControlView> {
      const scenarioLinkId = body.bra_risk_scenario_id ?? null;
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const bra = await lockedBra(trx, caller, braId, requireBraEditor, terms);
        requireEditable(bra, 'Controls can be linked');
        const subControl = await findSubControl(trx, bra.enterprise_id, body.sub_control_id);
        if (subControl === undefined) throw invalidReference('sub_control_id', 'does not refer to a sub-control of your enterprise');
        if (subControl.archived) throw invalidReference('sub_control_id', 'refers to an archived sub-control');
        if (scenarioLinkId !== null && (await findScenarioLink(trx, bra.enterprise_id, bra.id, scenarioLinkId)) === undefined) {
          throw invalidReference('bra_risk_scenario_id', 'does not refer to a scenario link of this BRA');
        }
        // The same sub-control twice for one scenario (or twice BRA-wide): bra_controls_sub_control_key → 409.
        const link = await insertControlLink(trx, bra.enterprise_id, {
          bra_id: bra.id,
          sub_control_id: body.sub_control_id,
          bra_risk_scenario_id: scenarioLinkId,
          created_by: caller.userId,
        });
        await recordBraChange(trx, caller, bra, {
          change: 'control_linked',
          control_link_id: link.id,
          sub_control_id: body.sub_control_id,
          sub_control_name: subControl.name,
          bra_risk_scenario_id: scenarioLinkId,
        });
        await touchBra(trx, caller, bra, 'control linked');
        const [row] = await listControlRows(trx, bra.enterprise_id, bra.id, link.id);
        return toControlView(row!);
      });
    },

    /** Removes a control link while the BRA is editable; audited as an update of the BRA (D10.3). Answers the BRA's new state. */
    async unlinkControl(caller: Caller, braId: string, linkId: string, terms: ChangeTerms): Promise<Versioned<null>> {
      return inTransaction(db, async ({ trx }) => {
        const bra = await lockedBra(trx, caller, braId, requireBraEditor, terms);
        const link = await findControlLink(trx, bra.enterprise_id, bra.id, linkId);
        if (link === undefined) throw notFound('Control link');
        requireEditable(bra, 'Control links can be removed');
        await deleteControlLink(trx, bra.enterprise_id, link.id);
        await recordBraChange(trx, caller, bra, {
          change: 'control_unlinked',
          control_link_id: link.id,
          sub_control_id: link.sub_control_id,
          bra_risk_scenario_id: link.bra_risk_scenario_id,
        });
        await touchBra(trx, caller, bra, 'control unlinked');
        return versioned(null, await braStateAfter(trx, bra));
      });
    },
  };
}

export type BraContentService = ReturnType<typeof createBraContentService>;
