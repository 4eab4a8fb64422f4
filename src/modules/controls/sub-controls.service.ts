import type { Static } from 'typebox';
import { auditFrom } from '../../platform/audit/audit-events.js';
import { writeAudit } from '../../platform/audit/audit-writer.js';
import { requireMember } from '../../platform/auth/policies.js';
import type { Caller } from '../../platform/auth/principal.js';
import type { Executor } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { AppError, invalidState, notFound } from '../../platform/http/errors.js';
import { changedFields } from './changes.js';
import { requireControlLibraryAdmin, requireTestRecorder } from './controls.policy.js';
import type { CreateSubControlBody, SubControlView, UpdateSubControlBody } from './controls.schemas.js';
import { totalEffectiveness } from './effectiveness-matrix.js';
import {
  archiveSubControl,
  findKeyControlState,
  insertSubControl,
  listSubControls,
  lockSubControl,
  updateSubControl,
  type SubControlChanges,
} from './sub-controls.repository.js';

type SubControl = Static<typeof SubControlView>;

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
    async list(caller: Caller, query: { key_control_id?: string | undefined; archived?: boolean | undefined }): Promise<SubControl[]> {
      requireMember(caller);
      const enterpriseId = caller.enterpriseId;
      if (query.key_control_id !== undefined && (await findKeyControlState(db, enterpriseId, query.key_control_id)) === undefined) {
        throw unknownKeyControl();
      }
      return listSubControls(db, enterpriseId, { keyControlId: query.key_control_id, includeArchived: query.archived === true });
    },

    async create(caller: Caller, body: Static<typeof CreateSubControlBody>): Promise<SubControl> {
      requireControlLibraryAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
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
        if (Object.keys(changes).length === 0) return current;
        const updated = await updateSubControl(trx, enterpriseId, id, wanted);
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
        if (current.archived) return { alreadyArchived: true };
        await archiveSubControl(trx, enterpriseId, id);
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
