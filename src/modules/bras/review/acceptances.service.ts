import type { Transaction } from 'kysely';
import { recordChange } from '../../../platform/audit/record-change.js';
import type { Caller } from '../../../platform/auth/principal.js';
import type { DB, Executor } from '../../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../../platform/db/transaction.js';
import { AppError, invalidReference, invalidState, notFound, referencedRecord } from '../../../platform/errors/app-error.js';
import { emitEvent } from '../../../platform/events/outbox.js';
import { loadPage, pageRequest, type Page } from '../../../platform/http/pagination.js';
import type { ChangeTerms } from '../../../platform/versions/change-terms.js';
import { lockForChange } from '../../../platform/changes/versioned-change.js';
import { versioned, type Versioned } from '../../../platform/versions/resource-state.js';
import { utcToday } from '../../actions/overdue.js';
import { findActionView } from '../../actions/actions.repository.js';
import { lockedBra } from '../access.js';
import { loadBraAnswer } from '../answer/answer.js';
import { ACCEPTABLE, hasStatus } from '../bras.lifecycle.js';
import { braScopeFor, requireBraMember, requireBraReader, requireRiskAcceptor } from '../bras.policy.js';
import { findBra, type BraRow } from '../bras.repository.js';
import { acceptanceState, addDays, requireExpiryWithin } from '../acceptance/acceptance-rules.js';
import { toAcceptanceView } from '../acceptance/acceptance.presenter.js';
import {
  activeAcceptanceOf,
  countAcceptances,
  endAcceptance,
  findAcceptance,
  insertAcceptance,
  listAcceptances,
  lockAcceptance,
  type AcceptanceFilter,
} from '../acceptance/acceptances.repository.js';
import type { AcceptRiskBody, ListAcceptancesQuery, RevokeAcceptanceBody, RiskAcceptanceView } from '../acceptance/acceptances.schemas.js';

export interface RiskAcceptancesDeps {
  db: Executor;
  /** RISK_ACCEPTANCE_MAX_DAYS: the furthest expiry, in days from today. */
  maxDays: number;
  now?: () => Date;
}

/**
 * Risk acceptance (issue 48): a client admin accepts a scenario above appetite until a date, renews it
 * (a new acceptance replaces the old) or revokes it. Every change is made under the BRA's row lock (so it
 * never races a new rating or an approval), audited, and an acceptance announced, in one transaction.
 */
export function createRiskAcceptancesService({ db, maxDays, now = () => new Date() }: RiskAcceptancesDeps) {
  const today = () => utcToday(now());

  async function versionedOf(trx: Executor, enterpriseId: string, id: string): Promise<Versioned<RiskAcceptanceView>> {
    const row = await findAcceptance(trx, enterpriseId, id, today());
    if (row === undefined) throw notFound('Risk acceptance');
    const view = toAcceptanceView(row);
    return versioned(view, acceptanceState(row, view));
  }
  const viewOf = async (trx: Executor, enterpriseId: string, id: string) => (await versionedOf(trx, enterpriseId, id)).data;

  /**
   * The acceptance of a scenario link of a locked BRA: the scenario (404), the state (409), the scenario above
   * appetite (409; on an approved BRA under the appetite its approval pinned, as its answer shows), the terms
   * (422, 400), one active per scenario (409); then written, audited and announced.
   */
  async function accept(trx: Transaction<DB>, caller: Caller, bra: BraRow, linkId: string, body: AcceptRiskBody, renewsId: string | null) {
    const scenario = (await loadBraAnswer(trx, bra)).scenarios.find((candidate) => candidate.id === linkId);
    if (scenario === undefined) throw notFound('Scenario link');
    if (!hasStatus(bra, ACCEPTABLE)) throw invalidState(`A risk can be accepted only on a BRA in progress, under review or approved; it is ${bra.status}`);
    if (scenario.above_appetite !== true || scenario.residual_rating === null || scenario.applicable_threshold === null) {
      throw invalidState('Only an included scenario whose residual rating is above its applicable appetite can be accepted');
    }
    requireExpiryWithin(body.expires_on, today(), maxDays);
    const actionId = body.mitigation_action_id ?? null;
    if (actionId !== null && (await findActionView(trx, bra.enterprise_id, actionId))?.archived !== false) {
      throw invalidReference('mitigation_action_id', 'a mitigation action (not archived)');
    }
    if ((await activeAcceptanceOf(trx, bra.enterprise_id, linkId)) !== undefined) {
      throw new AppError('CONFLICT', 'This scenario already has an active acceptance; renew or revoke it');
    }
    const terms = {
      rationale: body.rationale,
      conditions: body.conditions || null,
      mitigation_action_id: actionId,
      expires_on: body.expires_on,
      accepted_residual_score: scenario.residual_rating.risk_score,
      accepted_threshold: scenario.applicable_threshold,
    };
    const id = await insertAcceptance(trx, bra.enterprise_id, { bra_id: bra.id, bra_risk_scenario_id: linkId, accepted_by: caller.userId, renews_id: renewsId, ...terms });
    const named = { bra_id: bra.id, bra_name: bra.name, bra_risk_scenario_id: linkId, risk_scenario_id: scenario.risk_scenario_id, risk_scenario_name: scenario.name };
    await recordChange(trx, caller, {
      enterpriseId: bra.enterprise_id,
      action: 'create',
      entityType: 'risk_acceptance',
      entityId: id,
      details: { ...named, ...terms, renews_id: renewsId },
    });
    await emitEvent(trx, {
      enterpriseId: bra.enterprise_id,
      type: 'risk.accepted',
      data: {
        risk_acceptance_id: id,
        ...named,
        expires_on: body.expires_on,
        accepted_residual_score: terms.accepted_residual_score,
        threshold_value: terms.accepted_threshold,
        renews_id: renewsId,
      },
    });
    return viewOf(trx, bra.enterprise_id, id);
  }

  /**
   * An acceptance and its BRA, both locked (the BRA first, as every change of its content locks it), for a
   * client admin; If-Match is the acceptance's state, checked under the locks after 404 and 403.
   */
  async function lockedAcceptance(trx: Transaction<DB>, caller: Caller, acceptanceId: string, terms: ChangeTerms) {
    requireBraMember(caller);
    const found = await findAcceptance(trx, caller.enterpriseId, acceptanceId, today());
    if (found === undefined) throw notFound('Risk acceptance');
    const bra = await lockedBra(trx, caller, found.bra_id, (who) => requireRiskAcceptor(who), { work: terms.work ?? null });
    const acceptance = await lockForChange(
      {
        noun: 'Risk acceptance',
        lock: () => lockAcceptance(trx, bra.enterprise_id, acceptanceId),
        stateOf: async () => (await versionedOf(trx, bra.enterprise_id, acceptanceId)).state,
      },
      terms,
    );
    return { bra, acceptance };
  }

  return {
    async accept(caller: Caller, braId: string, linkId: string, body: AcceptRiskBody, terms: ChangeTerms): Promise<RiskAcceptanceView> {
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const bra = await lockedBra(trx, caller, braId, (who) => requireRiskAcceptor(who), terms);
        return accept(trx, caller, bra, linkId, body, null);
      });
    },

    /** An active (in force or lapsed) or expired acceptance, replaced by a new one on new terms. */
    async renew(caller: Caller, acceptanceId: string, body: AcceptRiskBody, terms: ChangeTerms): Promise<RiskAcceptanceView> {
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const { bra, acceptance } = await lockedAcceptance(trx, caller, acceptanceId, terms);
        if (acceptance.status !== 'active' && acceptance.status !== 'expired') {
          throw invalidState(`A ${acceptance.status} acceptance cannot be renewed; accept the risk anew`);
        }
        if (acceptance.status === 'active') {
          await endAcceptance(trx, bra.enterprise_id, acceptance.id, { status: 'renewed', ended_by: caller.userId, end_reason: 'Renewed' });
          await recordChange(trx, caller, {
            enterpriseId: bra.enterprise_id,
            action: 'update',
            entityType: 'risk_acceptance',
            entityId: acceptance.id,
            details: { bra_id: bra.id, bra_name: bra.name, status: { from: 'active', to: 'renewed' } },
          });
        }
        return accept(trx, caller, bra, acceptance.bra_risk_scenario_id, body, acceptance.id);
      });
    },

    async revoke(caller: Caller, acceptanceId: string, body: RevokeAcceptanceBody, terms: ChangeTerms): Promise<Versioned<RiskAcceptanceView>> {
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const { bra, acceptance } = await lockedAcceptance(trx, caller, acceptanceId, terms);
        if (acceptance.status !== 'active') throw invalidState(`Only an active acceptance can be revoked; it is ${acceptance.status}`);
        await endAcceptance(trx, bra.enterprise_id, acceptance.id, { status: 'revoked', ended_by: caller.userId, end_reason: body.reason });
        await recordChange(trx, caller, {
          enterpriseId: bra.enterprise_id,
          action: 'update',
          entityType: 'risk_acceptance',
          entityId: acceptance.id,
          details: { bra_id: bra.id, bra_name: bra.name, status: { from: 'active', to: 'revoked' }, reason: body.reason },
        });
        return versionedOf(trx, bra.enterprise_id, acceptance.id);
      });
    },

    async get(caller: Caller, acceptanceId: string): Promise<Versioned<RiskAcceptanceView>> {
      requireBraMember(caller);
      const row = await findAcceptance(db, caller.enterpriseId, acceptanceId, today());
      if (row === undefined) throw notFound('Risk acceptance');
      requireBraReader(caller, row);
      const view = toAcceptanceView(row);
      return versioned(view, acceptanceState(row, view));
    },

    async list(caller: Caller, query: ListAcceptancesQuery): Promise<Page<RiskAcceptanceView>> {
      requireBraMember(caller);
      const enterpriseId = caller.enterpriseId;
      if (query.bra_id !== undefined) await referencedRecord('bra_id', 'a BRA', findBra(db, enterpriseId, query.bra_id));
      const day = today();
      const filter: AcceptanceFilter = {
        scope: braScopeFor(caller),
        status: query.status,
        in_force: query.in_force,
        bra_id: query.bra_id,
        expiring_by: query.expiring_within_days === undefined ? undefined : addDays(day, query.expiring_within_days),
      };
      const page = await loadPage(
        pageRequest(query),
        () => countAcceptances(db, enterpriseId, day, filter),
        (limit, offset) => listAcceptances(db, enterpriseId, day, filter, { limit, offset }),
      );
      return { data: page.data.map(toAcceptanceView), pagination: page.pagination };
    },
  };
}

export type RiskAcceptancesService = ReturnType<typeof createRiskAcceptancesService>;
