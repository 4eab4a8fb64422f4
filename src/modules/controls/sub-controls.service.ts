import type { Static } from 'typebox';
import { auditFrom } from '../../platform/audit/audit-events.js';
import { writeAudit } from '../../platform/audit/audit-writer.js';
import { requireMember } from '../../platform/auth/policies.js';
import type { Caller } from '../../platform/auth/principal.js';
import type { Executor } from '../../platform/db/schema.js';
import { inTransaction, joinRequestWork } from '../../platform/db/transaction.js';
import { requireCurrentVersion, servedVersion } from '../../platform/http/conditional/preconditions.js';
import { AppError, invalidState, notFound } from '../../platform/http/errors.js';
import { changedFields } from './changes.js';
import { requireControlLibraryAdmin, requireTestRecorder } from './controls.policy.js';
import { resolveControlScope } from './control-scope.js';
import type { CreateSubControlBody, SubControlDetailView, SubControlListQuery, SubControlView, UpdateSubControlBody } from './controls.schemas.js';
import { appendCurrentResult, countTestRecords, listTestRecords } from './sub-control-tests.repository.js';
import { presentTestRecord } from './sub-control-tests.presenter.js';
import { totalEffectiveness } from './effectiveness-matrix.js';
import {
  archiveSubControl,
  findKeyControlState,
  findSubControlRow,
  insertSubControl,
  listSubControls,
  lockSubControl,
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
    async list(caller: Caller, query: SubControlQuery): Promise<SubControl[]> {
      requireMember(caller);
      const enterpriseId = caller.enterpriseId;
      if (query.key_control_id !== undefined && (await findKeyControlState(db, enterpriseId, query.key_control_id)) === undefined) {
        throw unknownKeyControl();
      }
      return listSubControls(db, enterpriseId, {
        keyControlId: query.key_control_id,
        tod: query.tod,
        toe: query.toe,
        totalEffectiveness: query.total_effectiveness,
        notAssessed: query.not_assessed,
        scope: await resolveControlScope(db, caller, query),
      });
    },

    /** One sub-control with the result recorded before its latest one (its test history's second entry). */
    async detail(caller: Caller, id: string): Promise<SubControlDetail> {
      requireMember(caller);
      const enterpriseId = caller.enterpriseId;
      const current = await findSubControlRow(db, enterpriseId, id);
      if (current === undefined) throw notFound('Sub-control');
      servedVersion(caller, current.row_version);
      const [latest, previous] = await listTestRecords(db, enterpriseId, id, 2, 0);
      return {
        ...current,
        tests_count: await countTestRecords(db, enterpriseId, id),
        latest_test: latest === undefined ? null : presentTestRecord(latest),
        previous_result: previous === undefined ? null : presentTestRecord(previous),
      };
    },

    async create(caller: Caller, body: Static<typeof CreateSubControlBody>): Promise<SubControl> {
      requireControlLibraryAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(joinRequestWork(db, caller), async ({ trx }) => {
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
          created_by: caller.userId,
        });
        if (created.tod !== null || created.toe !== null) await appendCurrentResult(trx, enterpriseId, created, 'create', caller.userId);
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
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
    async recordTestResults(caller: Caller, id: string, body: Static<typeof UpdateSubControlBody>): Promise<SubControl> {
      requireTestRecorder(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const current = await lockSubControl(trx, enterpriseId, id);
        if (current === undefined) throw notFound('Sub-control');
        requireCurrentVersion(caller, current.row_version);
        if (current.archived) throw invalidState('An archived sub-control cannot be changed');
        const wanted: SubControlChanges = {};
        if (body.tod !== undefined) wanted.tod = body.tod;
        if (body.toe !== undefined) wanted.toe = body.toe;
        if (body.testing_date !== undefined) wanted.testing_date = body.testing_date;
        for (const field of TEXT_FIELDS) {
          if (body[field] !== undefined) wanted[field] = body[field] || null;
        }
        // Recomputed from the resulting pair on every change (3.5); a client never sets it.
        const tod = wanted.tod !== undefined ? wanted.tod : current.tod;
        const toe = wanted.toe !== undefined ? wanted.toe : current.toe;
        wanted.total_effectiveness = totalEffectiveness(tod, toe);
        const changes = changedFields(current, wanted);
        if (Object.keys(changes).length === 0) {
          servedVersion(caller, current.row_version);
          return current;
        }
        const updated = await updateSubControl(trx, enterpriseId, id, wanted);
        // The history is complete whichever way a result was entered: a PATCH that moves the result
        // (tod, toe or the testing date) appends the state it leaves.
        if ('tod' in changes || 'toe' in changes || 'testing_date' in changes) {
          await appendCurrentResult(trx, enterpriseId, updated, 'update', caller.userId);
        }
        servedVersion(caller, updated.row_version);
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
          action: 'update',
          entityType: 'control',
          entityId: id,
          details: { control_kind: 'sub_control', key_control_id: current.key_control_id, changes },
        });
        return updated;
      });
    },

    /** Archiving an archived sub-control changes nothing. */
    async archive(caller: Caller, id: string): Promise<{ alreadyArchived: boolean }> {
      requireControlLibraryAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const current = await lockSubControl(trx, enterpriseId, id);
        if (current === undefined) throw notFound('Sub-control');
        requireCurrentVersion(caller, current.row_version);
        if (current.archived) {
          servedVersion(caller, current.row_version);
          return { alreadyArchived: true };
        }
        servedVersion(caller, await archiveSubControl(trx, enterpriseId, id));
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
          action: 'delete',
          entityType: 'control',
          entityId: id,
          details: { control_kind: 'sub_control', change: 'archived', key_control_id: current.key_control_id },
        });
        return { alreadyArchived: false };
      });
    },
  };
}

export type SubControlsService = ReturnType<typeof createSubControlsService>;
