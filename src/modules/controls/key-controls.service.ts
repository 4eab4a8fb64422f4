import type { Static } from 'typebox';
import { auditFrom } from '../../platform/audit/audit-events.js';
import { writeAudit } from '../../platform/audit/audit-writer.js';
import { requireMember } from '../../platform/auth/policies.js';
import type { Caller } from '../../platform/auth/principal.js';
import type { Executor } from '../../platform/db/schema.js';
import { inTransaction, joinRequestWork } from '../../platform/db/transaction.js';
import { requireCurrentVersion, servedVersion } from '../../platform/http/conditional/preconditions.js';
import { invalidState, notFound } from '../../platform/http/errors.js';
import { loadPage, pageRequest, type Page } from '../../platform/http/pagination.js';
import type { CreateKeyControlBody, KeyControlListItem, KeyControlView, UpdateKeyControlBody } from './controls.schemas.js';
import { changedFields } from './changes.js';
import { requireControlLibraryAdmin } from './controls.policy.js';
import {
  archiveKeyControl,
  countKeyControls,
  insertKeyControl,
  listKeyControls,
  lockKeyControl,
  updateKeyControl,
} from './key-controls.repository.js';
import { archiveSubControlsOf } from './sub-controls.repository.js';

type KeyControl = Static<typeof KeyControlView>;

/** Key controls of the caller's enterprise (2.2, 4.3, D7.2). Every change is audited as `control`. */
export function createKeyControlsService({ db }: { db: Executor }) {
  return {
    async list(
      caller: Caller,
      query: { archived?: boolean | undefined; page?: number | undefined; page_size?: number | undefined },
    ): Promise<Page<Static<typeof KeyControlListItem>>> {
      requireMember(caller);
      const enterpriseId = caller.enterpriseId;
      const includeArchived = query.archived === true;
      return loadPage(
        pageRequest(query),
        () => countKeyControls(db, enterpriseId, includeArchived),
        (limit, offset) => listKeyControls(db, enterpriseId, includeArchived, limit, offset),
      );
    },

    async create(caller: Caller, body: Static<typeof CreateKeyControlBody>): Promise<KeyControl> {
      requireControlLibraryAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(joinRequestWork(db, caller), async ({ trx }) => {
        const created = await insertKeyControl(trx, enterpriseId, {
          name: body.name,
          description: body.description || null,
          created_by: caller.userId,
        });
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
          action: 'create',
          entityType: 'control',
          entityId: created.id,
          details: { control_kind: 'key_control', name: created.name, description: created.description },
        });
        return created;
      });
    },

    /** An empty or unchanging body changes nothing and writes no entry. */
    async update(caller: Caller, id: string, body: Static<typeof UpdateKeyControlBody>): Promise<KeyControl> {
      requireControlLibraryAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const current = await lockKeyControl(trx, enterpriseId, id);
        if (current === undefined) throw notFound('Key control');
        requireCurrentVersion(caller, current.row_version);
        if (current.archived) throw invalidState('An archived key control cannot be changed');
        const wanted = {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description || null } : {}),
        };
        const changes = changedFields(current, wanted);
        if (Object.keys(changes).length === 0) {
          servedVersion(caller, current.row_version);
          return current;
        }
        const updated = await updateKeyControl(trx, enterpriseId, id, wanted);
        servedVersion(caller, updated.row_version);
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
          action: 'update',
          entityType: 'control',
          entityId: id,
          details: { control_kind: 'key_control', changes },
        });
        return updated;
      });
    },

    /**
     * Archives the key control and its active sub-controls in one transaction, with an entry for each
     * (so that each sub-control's own history shows it). Archiving an archived key control changes nothing.
     */
    async archive(caller: Caller, id: string): Promise<{ alreadyArchived: boolean }> {
      requireControlLibraryAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        const current = await lockKeyControl(trx, enterpriseId, id);
        if (current === undefined) throw notFound('Key control');
        requireCurrentVersion(caller, current.row_version);
        if (current.archived) {
          servedVersion(caller, current.row_version);
          return { alreadyArchived: true };
        }
        servedVersion(caller, await archiveKeyControl(trx, enterpriseId, id));
        const subControlIds = await archiveSubControlsOf(trx, enterpriseId, id);
        await writeAudit(trx, {
          enterpriseId,
          ...auditFrom(caller),
          action: 'delete',
          entityType: 'control',
          entityId: id,
          details: { control_kind: 'key_control', change: 'archived', archived_sub_control_ids: subControlIds },
        });
        for (const subControlId of subControlIds) {
          await writeAudit(trx, {
            enterpriseId,
            ...auditFrom(caller),
            action: 'delete',
            entityType: 'control',
            entityId: subControlId,
            details: { control_kind: 'sub_control', change: 'archived', key_control_id: id, with_key_control: true },
          });
        }
        return { alreadyArchived: false };
      });
    },
  };
}

export type KeyControlsService = ReturnType<typeof createKeyControlsService>;
