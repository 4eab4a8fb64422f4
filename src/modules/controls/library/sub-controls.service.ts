import type { Static } from 'typebox';
import { recordChange } from '../../../platform/audit/record-change.js';
import type { Caller } from '../../../platform/auth/principal.js';
import { diffFields, fromTo, isEmptyDiff } from '../../../platform/changes/field-diff.js';
import { archiveVersioned, updateVersioned } from '../../../platform/changes/versioned-change.js';
import type { Executor } from '../../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../../platform/db/transaction.js';
import { AppError, invalidState, notFound } from '../../../platform/errors/app-error.js';
import { cursorBinding, cursorWithoutLimit, decodeCursor, encodeCursor } from '../../../platform/http/keyset-cursor.js';
import type { ChangeTerms } from '../../../platform/versions/change-terms.js';
import { representationState, versioned, type Versioned } from '../../../platform/versions/resource-state.js';
import { requireControlLibraryAdmin, requireControlsReader, requireTestRecorder, subControlAbilities } from '../controls.policy.js';
import { resolveControlScope } from '../effectiveness/control-scope.js';
import type { CreateSubControlBody, SubControlDetailView, SubControlListQuery, SubControlView, UpdateSubControlBody } from '../controls.schemas.js';
import { appendCurrentResult } from './sub-control-tests.repository.js';
import { loadSubControlDetail, subControlState } from './sub-control-detail.js';
import { totalEffectiveness } from '../effectiveness-matrix.js';
import {
  archiveSubControl,
  findKeyControlState,
  findSubControlRow,
  insertSubControl,
  listSubControls,
  lockSubControl,
  pageSubControls,
  updateSubControl,
  type SubControlChanges,
} from './sub-controls.repository.js';

type SubControl = Static<typeof SubControlView>;
type SubControlDetail = Static<typeof SubControlDetailView>;
type SubControlQuery = Static<typeof SubControlListQuery>;

/** A key_control_id (body or filter) that is not a key control of the caller's enterprise (D2.2). */
const unknownKeyControl = () =>
  new AppError('INVALID_REFERENCE', 'key_control_id does not refer to a key control of your enterprise', { field: 'key_control_id' });

// Nullable text fields: an empty string (after trimming) is stored as "no value".
const TEXT_FIELDS = ['tested_by', 'evidence_notes', 'tod_justification', 'toe_justification'] as const;

/** What a PATCH asks of the current result; the total is recomputed from the resulting pair (3.5), never taken from a client. */
function wantedResult(current: SubControlChanges & { tod: SubControlChanges['tod']; toe: SubControlChanges['toe'] }, body: Static<typeof UpdateSubControlBody>): SubControlChanges {
  const wanted: SubControlChanges = {};
  if (body.tod !== undefined) wanted.tod = body.tod;
  if (body.toe !== undefined) wanted.toe = body.toe;
  if (body.testing_date !== undefined) wanted.testing_date = body.testing_date;
  if (body.testing_frequency !== undefined) wanted.testing_frequency = body.testing_frequency;
  for (const field of TEXT_FIELDS) {
    if (body[field] !== undefined) wanted[field] = body[field] || null;
  }
  const tod = wanted.tod !== undefined ? wanted.tod : current.tod;
  const toe = wanted.toe !== undefined ? wanted.toe : current.toe;
  wanted.total_effectiveness = totalEffectiveness(tod, toe);
  return wanted;
}

/**
 * Sub-controls (2.3, 4.3): client admins create and archive them; client admins and assessors record
 * test results (D5). `total_effectiveness` is never taken from a client: it is computed here, from the
 * 3.5 matrix, whenever a sub-control is created or its tod or toe change.
 */
export function createSubControlsService({ db }: { db: Executor }) {
  return {
    /**
     * The library, or the drill-down behind a heat-map cell or an effectiveness count: the same scope
     * (entity, unit, BRA, archived) as those counts, plus the cell's or count's own attribute filter.
     */
    async list(caller: Caller, query: SubControlQuery): Promise<{ data: SubControl[]; next_cursor?: string | null }> {
      requireControlsReader(caller);
      const enterpriseId = caller.enterpriseId;
      if (query.key_control_id !== undefined && (await findKeyControlState(db, enterpriseId, query.key_control_id)) === undefined) {
        throw unknownKeyControl();
      }
      const search = query.q?.trim() || undefined;
      const filter = {
        keyControlId: query.key_control_id,
        tod: query.tod,
        toe: query.toe,
        totalEffectiveness: query.total_effectiveness,
        notAssessed: query.not_assessed,
        search,
      };
      // Checked before the scope is resolved: a forged cursor is refused without reading anything.
      const binding = cursorBinding('controls.sub_control.list', enterpriseId, {
        ...filter,
        archived: query.archived,
        legalEntityId: query.legal_entity_id,
        businessUnitId: query.business_unit_id,
        braId: query.bra_id,
      });
      if (query.cursor !== undefined && query.limit === undefined) throw cursorWithoutLimit();
      const after = query.cursor === undefined ? null : decodeCursor(query.cursor, binding);
      const scoped = { ...filter, scope: await resolveControlScope(db, caller, query) };
      // Without limit, the interface's list: every row, only `data`.
      if (query.limit === undefined) return { data: await listSubControls(db, enterpriseId, scoped) };
      const page = await pageSubControls(db, enterpriseId, scoped, { limit: query.limit, after });
      return { data: page.rows, next_cursor: page.last === null ? null : encodeCursor(page.last, binding) };
    },

    /** One sub-control with the result recorded before its latest one (its test history's second entry). */
    async detail(caller: Caller, id: string): Promise<Versioned<SubControlDetail & { abilities: ReturnType<typeof subControlAbilities> }>> {
      requireControlsReader(caller);
      const enterpriseId = caller.enterpriseId;
      const current = await findSubControlRow(db, enterpriseId, id);
      if (current === undefined) throw notFound('Sub-control');
      const detail = await loadSubControlDetail(db, enterpriseId, current);
      // The state is the sub-control's, whoever reads it; the abilities are this caller's (decisions.md, "Abilities").
      return versioned({ ...detail, abilities: subControlAbilities(caller, current) }, representationState(current.row_version, detail));
    },

    async create(caller: Caller, body: Static<typeof CreateSubControlBody>, terms: ChangeTerms): Promise<SubControl> {
      requireControlLibraryAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const parent = await findKeyControlState(trx, enterpriseId, body.key_control_id, true);
        if (parent === undefined) throw unknownKeyControl();
        if (parent.archived) throw invalidState('Sub-controls cannot be added to an archived key control');
        const tod = body.tod ?? null;
        const toe = body.toe ?? null;
        const created = await insertSubControl(trx, enterpriseId, {
          key_control_id: body.key_control_id,
          name: body.name,
          description: body.description || null,
          tod,
          toe,
          total_effectiveness: totalEffectiveness(tod, toe),
          testing_frequency: body.testing_frequency ?? null,
          created_by: caller.userId,
        });
        if (created.tod !== null || created.toe !== null) await appendCurrentResult(trx, enterpriseId, created, 'create', caller.userId);
        await recordChange(trx, caller, {
          action: 'create',
          entityType: 'control',
          entityId: created.id,
          details: {
            control_kind: 'sub_control',
            key_control_id: created.key_control_id,
            name: created.name,
            description: created.description,
            tod: created.tod,
            toe: created.toe,
            total_effectiveness: created.total_effectiveness,
            testing_frequency: created.testing_frequency,
          },
        });
        return created;
      });
    },

    /**
     * Records test results. The row is locked first, so that two testers changing tod and toe at once
     * both land and the total reflects both. Only fields that change are written and audited; a body that
     * changes nothing writes no entry.
     */
    async recordTestResults(caller: Caller, id: string, body: Static<typeof UpdateSubControlBody>, terms: ChangeTerms): Promise<Versioned<SubControl>> {
      requireTestRecorder(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const { row } = await updateVersioned(trx, caller, terms, {
          noun: 'Sub-control',
          lock: () => lockSubControl(trx, enterpriseId, id),
          stateOf: (current) => subControlState(trx, enterpriseId, current),
          refuse: (current) => {
            if (current.archived) throw invalidState('An archived sub-control cannot be changed');
          },
          diff: (current) => {
            const diff = diffFields(current, wantedResult(current, body));
            return isEmptyDiff(diff) ? null : diff;
          },
          write: (_current, diff) => updateSubControl(trx, enterpriseId, id, diff.set),
          audit: (current, _updated, diff) => ({
            entityType: 'control',
            entityId: id,
            details: { control_kind: 'sub_control', key_control_id: current.key_control_id, changes: fromTo(diff) },
          }),
          // The history is complete whichever way a result was entered: a PATCH that moves the result
          // (tod, toe or the testing date) appends the state it leaves.
          after: async (_current, updated, diff) => {
            if ('tod' in diff.set || 'toe' in diff.set || 'testing_date' in diff.set) {
              await appendCurrentResult(trx, enterpriseId, updated, 'update', caller.userId);
            }
          },
        });
        return versioned(row, await subControlState(trx, enterpriseId, row));
      });
    },

    /** Archiving an archived sub-control changes nothing. */
    async archive(caller: Caller, id: string, terms: ChangeTerms): Promise<Versioned<{ alreadyArchived: boolean }>> {
      requireControlLibraryAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const { row, changed } = await archiveVersioned(trx, caller, terms, {
          noun: 'Sub-control',
          lock: () => lockSubControl(trx, enterpriseId, id),
          stateOf: (current) => subControlState(trx, enterpriseId, current),
          isArchived: (current) => current.archived,
          again: 'unchanged',
          archive: async (current) => ({ ...current, archived: true, row_version: await archiveSubControl(trx, enterpriseId, id) }),
          audit: (current) => ({
            entityType: 'control',
            entityId: id,
            details: { control_kind: 'sub_control', change: 'archived', key_control_id: current.key_control_id },
          }),
        });
        const archived = changed ? ((await findSubControlRow(trx, enterpriseId, id)) ?? row) : row;
        return versioned({ alreadyArchived: !changed }, await subControlState(trx, enterpriseId, archived));
      });
    },
  };
}

export type SubControlsService = ReturnType<typeof createSubControlsService>;
