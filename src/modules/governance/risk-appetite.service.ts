import type { Caller } from '../../platform/auth/principal.js';
import { recordChange } from '../../platform/audit/record-change.js';
import { lockForChange } from '../../platform/changes/versioned-change.js';
import type { Executor } from '../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../platform/db/transaction.js';
import { AppError, invalidState, referencedRecord, validationError } from '../../platform/errors/app-error.js';
import type { ChangeTerms } from '../../platform/versions/change-terms.js';
import { requireAbsent, requireExpected, versioned, versionState, type Versioned } from '../../platform/versions/resource-state.js';
import { findBusinessUnit, findLegalEntity } from '../legal-entities/legal-entities.repository.js';
import { aboveAppetiteNow, announceAppetiteChange } from './appetite-events.js';
import { requireAppetiteAdmin, requireAppetiteReader, requireVisibleFilter, visibleAppetites } from './governance.policy.js';
import {
  deleteAppetite,
  findApplicableAppetite,
  findAppetiteForUpdate,
  findAppetiteOfScopeForUpdate,
  insertAppetite,
  insertAppetiteHistory,
  insertAppetiteIfAbsent,
  listAppetiteHistory,
  listAppetites,
  updateAppetite,
  type AppetiteScope,
} from './risk-appetite.repository.js';
import type { HistoryQuery, ListAppetitesQuery, RiskAppetiteView, UpsertAppetiteBody } from './risk-appetite.schemas.js';

/** D6.9: every enterprise starts with this enterprise-wide appetite. */
export const DEFAULT_APPETITE = {
  risk_level: 'Medium',
  threshold_value: 9,
  description: 'Enterprise default',
  reason: 'Enterprise created',
} as const;

export type AppetiteRecord = NonNullable<Awaited<ReturnType<typeof findApplicableAppetite>>>;

const isDefault = (record: { legal_entity_id: string | null; business_unit_id: string | null }) =>
  record.legal_entity_id === null && record.business_unit_id === null;

const levelOf = (record: AppetiteRecord) => ({ level: record.risk_level, threshold: record.threshold_value });
const levelView = (record: AppetiteRecord) => ({ risk_level: record.risk_level, threshold_value: record.threshold_value });

/**
 * Risk appetite (4.5, D6.9, D7.4). Bound to an executor: handed a caller's transaction, its reads and
 * writes are part of the caller's work (a new enterprise and its default appetite commit together).
 */
export function createRiskAppetiteService({ db }: { db: Executor }) {
  /** The place filters of the list and the history name records of the enterprise (400 INVALID_REFERENCE otherwise). */
  async function referencedPlace(caller: { enterpriseId: string }, query: { legal_entity_id?: string | undefined; business_unit_id?: string | undefined }) {
    if (query.legal_entity_id !== undefined) await referencedRecord('legal_entity_id', 'a legal entity', findLegalEntity(db, caller.enterpriseId, query.legal_entity_id));
    if (query.business_unit_id !== undefined) await referencedRecord('business_unit_id', 'a business unit', findBusinessUnit(db, caller.enterpriseId, query.business_unit_id));
  }

  return {
    /**
     * The appetite that applies to a BRA of this legal entity and business unit (D6.9). Every enterprise
     * has a default, so a missing one is a broken invariant, not a client error.
     */
    async applicableAppetite(enterpriseId: string, legalEntityId: string, businessUnitId: string | null): Promise<AppetiteRecord> {
      const appetite = await findApplicableAppetite(db, enterpriseId, { legalEntityId, businessUnitId });
      if (appetite === undefined) throw new Error(`enterprise ${enterpriseId} has no default risk appetite`);
      return appetite;
    },

    /** The enterprise-wide default (both scope columns null) and its first history entry. */
    async createEnterpriseDefault(enterpriseId: string, actorId: string): Promise<AppetiteRecord> {
      const scope: AppetiteScope = { legalEntityId: null, businessUnitId: null };
      return inTransaction(db, async ({ trx }) => {
        const record = await insertAppetite(trx, enterpriseId, {
          ...scope,
          risk_level: DEFAULT_APPETITE.risk_level,
          threshold_value: DEFAULT_APPETITE.threshold_value,
          description: DEFAULT_APPETITE.description,
          updated_by: actorId,
        });
        await insertAppetiteHistory(trx, enterpriseId, {
          ...scope,
          riskAppetiteId: record.id,
          previous: null,
          next: { level: record.risk_level, threshold: record.threshold_value },
          changedBy: actorId,
          reason: DEFAULT_APPETITE.reason,
        });
        return record;
      });
    },

    /** GET /governance/risk-appetite (4.5): the records the caller may see, narrowed by scope filters. */
    async list(caller: Caller, query: ListAppetitesQuery): Promise<RiskAppetiteView[]> {
      requireAppetiteReader(caller);
      await referencedPlace(caller, query);
      const unitEntity =
        query.business_unit_id === undefined ? undefined : (await findBusinessUnit(db, caller.enterpriseId, query.business_unit_id))?.legal_entity_id;
      requireVisibleFilter(caller, {
        legalEntityId: query.legal_entity_id,
        businessUnit: query.business_unit_id === undefined ? undefined : { id: query.business_unit_id, legalEntityId: unitEntity ?? null },
      });
      return listAppetites(db, caller.enterpriseId, query, visibleAppetites(caller));
    },

    /**
     * POST /governance/risk-appetite (4.5, D7.4): one record per scope. The scope's record is read with a
     * row lock; when there is none, an insert that yields to a concurrent one (ON CONFLICT DO NOTHING) and
     * then updates the winner. So concurrent upserts of one scope leave one record and a history entry each.
     */
    async upsert(caller: Caller, body: UpsertAppetiteBody, terms: ChangeTerms): Promise<Versioned<{ created: boolean; record: RiskAppetiteView }>> {
      requireAppetiteAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      const scope: AppetiteScope = { legalEntityId: body.legal_entity_id ?? null, businessUnitId: body.business_unit_id ?? null };
      if (scope.businessUnitId !== null && scope.legalEntityId === null) {
        throw validationError([{ field: 'legal_entity_id', message: 'is required with business_unit_id' }]);
      }
      const values = {
        risk_level: body.risk_level,
        threshold_value: body.threshold_value,
        description: body.description ?? null,
        updated_by: caller.userId,
      };
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        let previous = await findAppetiteOfScopeForUpdate(trx, enterpriseId, scope);
        if (previous === undefined) requireAbsent(terms.expected);
        const aboveBefore = await aboveAppetiteNow(trx, enterpriseId, scope);
        let record = previous === undefined ? await insertAppetiteIfAbsent(trx, enterpriseId, { ...scope, ...values }) : undefined;
        if (previous === undefined && record === undefined) {
          // A concurrent request created the record first: update it (the lock waits for its commit).
          previous = await findAppetiteOfScopeForUpdate(trx, enterpriseId, scope);
          if (previous === undefined) throw new AppError('CONFLICT', 'The risk appetite of this scope changed concurrently; retry');
        }
        if (previous !== undefined) {
          await requireExpected(terms.expected, versionState(previous.row_version));
          record = await updateAppetite(trx, enterpriseId, previous.id, values);
        }
        const saved = record!;
        await insertAppetiteHistory(trx, enterpriseId, {
          ...scope,
          riskAppetiteId: saved.id,
          previous: previous === undefined ? null : levelOf(previous),
          next: levelOf(saved),
          changedBy: caller.userId,
          reason: body.reason ?? null,
        });
        await recordChange(trx, caller, {
          action: previous === undefined ? 'create' : 'update',
          entityType: 'risk_appetite',
          entityId: saved.id,
          details: {
            legal_entity_id: scope.legalEntityId,
            business_unit_id: scope.businessUnitId,
            previous: previous === undefined ? null : { risk_level: previous.risk_level, threshold_value: previous.threshold_value, description: previous.description },
            new: { risk_level: saved.risk_level, threshold_value: saved.threshold_value, description: saved.description },
            reason: body.reason ?? null,
          },
        });
        await announceAppetiteChange(
          trx,
          enterpriseId,
          { id: saved.id, scope, previous: previous === undefined ? null : levelView(previous), next: levelView(saved) },
          aboveBefore,
        );
        return versioned({ created: previous === undefined, record: saved }, versionState(saved.row_version));
      });
    },

    /** DELETE /governance/risk-appetite/{id} (4.5, D7.4): overrides only; the default answers 409. */
    async remove(caller: Caller, id: string, terms: ChangeTerms): Promise<void> {
      requireAppetiteAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      await inTransaction(db, async ({ trx }) => {
        const record = await lockForChange({ noun: 'Risk appetite', lock: () => findAppetiteForUpdate(trx, enterpriseId, id) }, terms);
        if (isDefault(record)) throw invalidState('The enterprise default risk appetite cannot be deleted, only updated');
        const scope = { legalEntityId: record.legal_entity_id, businessUnitId: record.business_unit_id };
        const aboveBefore = await aboveAppetiteNow(trx, enterpriseId, scope);
        await deleteAppetite(trx, enterpriseId, id);
        await insertAppetiteHistory(trx, enterpriseId, {
          legalEntityId: record.legal_entity_id,
          businessUnitId: record.business_unit_id,
          riskAppetiteId: record.id,
          previous: levelOf(record),
          next: null,
          changedBy: caller.userId,
          reason: null,
        });
        await recordChange(trx, caller, {
          action: 'delete',
          entityType: 'risk_appetite',
          entityId: record.id,
          details: {
            legal_entity_id: record.legal_entity_id,
            business_unit_id: record.business_unit_id,
            previous: { risk_level: record.risk_level, threshold_value: record.threshold_value, description: record.description },
          },
        });
        await announceAppetiteChange(trx, enterpriseId, { id: record.id, scope, previous: levelView(record), next: null }, aboveBefore);
      });
    },

    /** GET /governance/risk-appetite/history (D7.4): newest first, scope as for the list. */
    async history(caller: Caller, query: HistoryQuery) {
      requireAppetiteReader(caller);
      await referencedPlace(caller, query);
      requireVisibleFilter(caller, { legalEntityId: query.legal_entity_id });
      return listAppetiteHistory(db, caller.enterpriseId, query, visibleAppetites(caller));
    },
  };
}

export type RiskAppetiteService = ReturnType<typeof createRiskAppetiteService>;
