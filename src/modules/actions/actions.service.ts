import { recordChange } from '../../platform/audit/record-change.js';
import type { Caller } from '../../platform/auth/principal.js';
import { PRIMARY_READS, type RoutedReads } from '../../platform/db/read-routing.js';
import type { Executor } from '../../platform/db/schema.js';
import type { Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { archiveVersioned, updateVersioned, type RecordLookup } from '../../platform/changes/versioned-change.js';
import { inTransaction, joinWork } from '../../platform/db/transaction.js';
import { AppError, forbidden, invalidState, referencedRecord, validationError } from '../../platform/errors/app-error.js';
import type { ChangeTerms } from '../../platform/versions/change-terms.js';
import { versioned, versionState, type Versioned } from '../../platform/versions/resource-state.js';
import { loadPage, pageRequest, type Page } from '../../platform/http/pagination.js';
import { findScenarioLink } from '../bras/assessment/content.repository.js';
import { findBra } from '../bras/bras.repository.js';
import { actionAbilities, requireActionBra, requireActionEditor, requireActionReader, type ActionReadPlace } from './actions.policy.js';
import { presentAction } from './actions.presenter.js';
import {
  countActions,
  findActionView,
  hasMembership,
  insertAction,
  listActions,
  lockActions,
  markArchived,
  mayReadAction,
  updateActions,
  type ActionChanges,
  type LockedAction,
} from './actions.repository.js';
import type {
  ActionChangeView,
  ActionView,
  BulkUpdateBody,
  CreateActionBody,
  ListActionsQuery,
  UpdateActionBody,
} from './actions.schemas.js';
import { isOverdue, utcToday } from './overdue.js';
import { announceCompletions } from './action-events.js';
import { noticeOfAssignment } from './action-notices.js';

const CHANGEABLE = ['action', 'owner', 'owner_user_id', 'status', 'priority', 'action_type', 'due_date'] as const;

const invalidReference = (field: string, why: string) => new AppError('INVALID_REFERENCE', why, { field });

/**
 * An action is assigned only to someone who may read it (actions.policy.ts actionReaderSql): an active member
 * of the enterprise, a client admin or assigned to its BRA's place (the creator, for an unlinked action); 422.
 */
async function requireAssignable(trx: Executor, enterpriseId: string, ownerUserId: string | null | undefined, action: ActionReadPlace): Promise<void> {
  if (ownerUserId === null || ownerUserId === undefined) return;
  if (!(await mayReadAction(trx, enterpriseId, ownerUserId, action))) {
    throw validationError([
      {
        field: 'owner_user_id',
        message: "must be an active member of your enterprise who may read this action: a client admin, or a member assigned to its BRA's legal entity or business unit",
      },
    ]);
  }
}

/** Only the fields sent, in a fixed order (the body's own key order is the client's business). */
function changesOf(body: UpdateActionBody): ActionChanges {
  const changes: Record<string, unknown> = {};
  for (const field of CHANGEABLE) if (body[field] !== undefined) changes[field] = body[field];
  return changes as ActionChanges;
}

/** What the audit entry records: each field sent, from its old value to the new one. */
function auditChanges(before: LockedAction, changes: ActionChanges) {
  return Object.fromEntries(
    Object.entries(changes).map(([field, to]) => [field, { from: before[field as keyof ActionChanges], to }]),
  );
}

/** A locked action's read place (its BRA's entity and unit, its creator). */
const placeOf = (action: LockedAction): ActionReadPlace => ({
  braId: action.bra_id,
  legalEntityId: action.legal_entity_id,
  businessUnitId: action.business_unit_id,
  createdBy: action.created_by,
});

export interface ActionsServiceDeps {
  /** The database, or a caller's open transaction to join (inTransaction). */
  db: Executor;
  /** Today's instant; the service reads the UTC date from it at every call (tests keep the real clock). */
  now?: () => Date;
  /** Where the list's total may be read (the replica, db/read-routing.ts); default the primary. */
  reads?: RoutedReads;
}

/**
 * Mitigation actions (2.4, 3.2, 4.4, D7.3). Every change and its `mitigation_action` audit entry share one
 * transaction; a refused change leaves no trace but the access_denied entry of a 403.
 */
export function createActionsService({ db, now = () => new Date(), reads = PRIMARY_READS }: ActionsServiceDeps) {
  /**
   * The single action a PATCH or an archive names, locked: another enterprise's or an unknown id is 404, one
   * of the caller's enterprise outside their scope 403 (D10.1).
   */
  function oneAction(trx: Transaction<DB>, caller: Caller & { enterpriseId: string }, actionId: string): RecordLookup<LockedAction> {
    return {
      noun: 'Mitigation action',
      lock: async () => (await lockActions(trx, caller.enterpriseId, caller, [actionId]))[0],
      authorize: (row) => {
        if (!row.in_scope) throw forbidden('This mitigation action is outside your assigned entities');
      },
    };
  }

  return {
    /**
     * Scoped in SQL (D5). A bra_id filter naming no BRA of the enterprise (unknown, or another enterprise's)
     * is 400 INVALID_REFERENCE, as every list's reference filters are; one outside an assessor's or
     * reviewer's assignments is 403 (D10.1: list filters naming what the caller may not see).
     */
    async list(caller: Caller, query: ListActionsQuery): Promise<Page<ActionView & { abilities: ReturnType<typeof actionAbilities> }>> {
      requireActionReader(caller);
      const enterpriseId = caller.enterpriseId;
      if (query.bra_id !== undefined) {
        const bra = await referencedRecord('bra_id', 'a BRA', findBra(db, enterpriseId, query.bra_id));
        requireActionBra(caller, bra);
      }
      const ownerUserId = query.owner_user_id === 'me' ? caller.userId : query.owner_user_id;
      if (query.owner_user_id !== undefined && query.owner_user_id !== 'me' && !(await hasMembership(db, enterpriseId, query.owner_user_id))) {
        throw invalidReference('owner_user_id', 'owner_user_id does not refer to a member of your enterprise');
      }
      const today = utcToday(now());
      const filter = {
        braId: query.bra_id,
        ownerUserId,
        status: query.status,
        priority: query.priority,
        overdueOn: query.overdue_only === true ? today : undefined,
        includeArchived: query.archived === true,
      };
      const page = await loadPage(
        pageRequest(query),
        // The total may come from the replica (db/read-routing.ts); the rows come from the primary.
        async () => countActions(await reads.executorFor(db, caller.userId), enterpriseId, caller, filter),
        (limit, offset) => listActions(db, enterpriseId, caller, filter, limit, offset),
      );
      return { ...page, data: page.data.map((row) => ({ ...presentAction(row, today), abilities: actionAbilities(caller, row) })) };
    },

    /**
     * D7.3 references: a BRA of the enterprise (else 400), within an assessor's assignments (else 403), and a
     * scenario link only together with its own BRA (else 400). Any BRA status may carry actions: an approved
     * assessment is where its action plan is followed up.
     */
    async create(caller: Caller, body: CreateActionBody, terms: ChangeTerms): Promise<ActionView> {
      requireActionEditor(caller);
      const enterpriseId = caller.enterpriseId;
      const braId = body.bra_id ?? null;
      const linkId = body.bra_risk_scenario_id ?? null;
      const ownerUserId = body.owner_user_id ?? null;
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const bra = braId === null ? undefined : await findBra(trx, enterpriseId, braId);
        if (braId !== null) {
          if (bra === undefined) throw invalidReference('bra_id', 'bra_id does not refer to a BRA of your enterprise');
          requireActionBra(caller, bra);
        }
        if (linkId !== null) {
          if (braId === null) throw invalidReference('bra_risk_scenario_id', 'bra_risk_scenario_id requires its bra_id');
          if ((await findScenarioLink(trx, enterpriseId, braId, linkId)) === undefined) {
            throw invalidReference('bra_risk_scenario_id', 'bra_risk_scenario_id does not refer to a scenario link of this BRA');
          }
        }
        const place = { braId, legalEntityId: bra?.legal_entity_id ?? null, businessUnitId: bra?.business_unit_id ?? null, createdBy: caller.userId };
        await requireAssignable(trx, enterpriseId, ownerUserId, place);
        const { id } = await insertAction(trx, enterpriseId, {
          action: body.action,
          owner: body.owner,
          owner_user_id: ownerUserId,
          priority: body.priority,
          action_type: body.action_type,
          due_date: body.due_date,
          bra_id: braId,
          bra_risk_scenario_id: linkId,
          created_by: caller.userId,
        });
        const created = (await findActionView(trx, enterpriseId, id))!;
        await recordChange(trx, caller, {
          action: 'create',
          entityType: 'mitigation_action',
          entityId: id,
          details: {
            action: created.action,
            owner: created.owner,
            owner_user_id: created.owner_user_id,
            status: created.status,
            priority: created.priority,
            action_type: created.action_type,
            due_date: created.due_date,
            bra_id: created.bra_id,
            bra_risk_scenario_id: created.bra_risk_scenario_id,
          },
        });
        await noticeOfAssignment(trx, caller, created, null, place);
        return presentAction(created, utcToday(now()));
      });
    },

    /** Any status move is allowed (D7.3); an archived action cannot change (409). Every field sent is written and audited. */
    async update(caller: Caller, actionId: string, body: UpdateActionBody, terms: ChangeTerms): Promise<Versioned<ActionChangeView>> {
      requireActionEditor(caller);
      const enterpriseId = caller.enterpriseId;
      const changes = changesOf(body);
      return inTransaction(db, async ({ trx }) => {
        let written: Awaited<ReturnType<typeof updateActions>>[number] | undefined;
        await updateVersioned(trx, caller, terms, {
          ...oneAction(trx, caller, actionId),
          refuse: async (before) => {
            if (before.archived) throw invalidState('An archived mitigation action cannot be changed');
            await requireAssignable(trx, enterpriseId, changes.owner_user_id, placeOf(before));
          },
          diff: () => changes,
          write: async (before) => {
            written = (await updateActions(trx, enterpriseId, [actionId], changes))[0]!;
            return { ...before, row_version: written.row_version };
          },
          audit: (before) => ({ entityType: 'mitigation_action', entityId: actionId, details: { changes: auditChanges(before, changes) } }),
          after: async (before) => {
            await announceCompletions(trx, enterpriseId, [before], changes);
            if (changes.owner_user_id !== undefined) await noticeOfAssignment(trx, caller, { ...before, ...changes, id: actionId }, before.owner_user_id, placeOf(before));
          },
        });
        const changed = written!;
        const fields = Object.fromEntries(Object.keys(changes).map((field) => [field, changed[field as keyof ActionChanges]]));
        const view = { id: changed.id, ...fields, is_overdue: isOverdue(changed, utcToday(now())), updated_at: changed.updated_at };
        return versioned(view, versionState(changed.row_version));
      });
    },

    /**
     * All or nothing (D7.3, D10.2): the named actions are locked first; any unknown or out-of-scope id is 404
     * and any archived one 409, before anything is written. Then one UPDATE and one audit entry per action.
     */
    async bulkUpdate(caller: Caller, body: BulkUpdateBody, terms: ChangeTerms): Promise<{ updated_count: number; updated_ids: string[] }> {
      requireActionEditor(caller);
      const enterpriseId = caller.enterpriseId;
      const ids = body.action_ids;
      const changes = changesOf(body.updates);
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const locked = new Map((await lockActions(trx, enterpriseId, caller, ids)).map((row) => [row.id, row]));
        const missing = ids.filter((id) => locked.get(id)?.in_scope !== true);
        if (missing.length > 0) {
          throw new AppError('NOT_FOUND', 'Some mitigation actions were not found; nothing was changed', { action_ids: missing });
        }
        const archived = ids.filter((id) => locked.get(id)!.archived);
        if (archived.length > 0) {
          throw new AppError('INVALID_STATE', 'Archived mitigation actions cannot be changed; nothing was changed', {
            action_ids: archived,
          });
        }
        await updateActions(trx, enterpriseId, ids, changes);
        for (const id of ids) {
          await recordChange(trx, caller, {
            action: 'update',
            entityType: 'mitigation_action',
            entityId: id,
            details: { changes: auditChanges(locked.get(id)!, changes), bulk_update: { size: ids.length } },
          });
        }
        await announceCompletions(trx, enterpriseId, [...locked.values()], changes);
        return { updated_count: ids.length, updated_ids: [...ids] };
      });
    },

    /**
     * Idempotent (D7.3): archiving an archived action changes nothing and writes no entry. Recorded as a
     * `delete` (2.9: delete covers archiving).
     */
    async archive(caller: Caller, actionId: string, terms: ChangeTerms): Promise<Versioned<{ archived: boolean }>> {
      requireActionEditor(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const { row, changed } = await archiveVersioned(trx, caller, terms, {
          ...oneAction(trx, caller, actionId),
          isArchived: (before) => before.archived,
          again: 'unchanged',
          archive: async (before) => ({ ...before, archived: true, row_version: (await markArchived(trx, enterpriseId, actionId, caller.userId))!.row_version }),
          audit: (before) => ({
            entityType: 'mitigation_action',
            entityId: actionId,
            details: { archived: true, action: before.action, status: before.status },
          }),
        });
        return versioned({ archived: changed }, versionState(row.row_version));
      });
    },
  };
}

export type ActionsService = ReturnType<typeof createActionsService>;
