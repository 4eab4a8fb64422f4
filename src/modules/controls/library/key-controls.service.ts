import type { Static } from 'typebox';
import { recordChange } from '../../../platform/audit/record-change.js';
import type { Caller } from '../../../platform/auth/principal.js';
import { diffFields, fromTo, isEmptyDiff } from '../../../platform/changes/field-diff.js';
import { archiveVersioned, updateVersioned } from '../../../platform/changes/versioned-change.js';
import type { Executor } from '../../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../../platform/db/transaction.js';
import { invalidState } from '../../../platform/errors/app-error.js';
import type { ChangeTerms } from '../../../platform/versions/change-terms.js';
import { versioned, versionState, type Versioned } from '../../../platform/versions/resource-state.js';
import { loadPage, pageRequest, type Page } from '../../../platform/http/pagination.js';
import type { CreateKeyControlBody, KeyControlListItem, KeyControlView, UpdateKeyControlBody } from '../controls.schemas.js';
import { requireControlLibraryAdmin, requireControlsReader } from '../controls.policy.js';
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
      requireControlsReader(caller);
      const enterpriseId = caller.enterpriseId;
      const includeArchived = query.archived === true;
      return loadPage(
        pageRequest(query),
        () => countKeyControls(db, enterpriseId, includeArchived),
        (limit, offset) => listKeyControls(db, enterpriseId, includeArchived, limit, offset),
      );
    },

    async create(caller: Caller, body: Static<typeof CreateKeyControlBody>, terms: ChangeTerms): Promise<KeyControl> {
      requireControlLibraryAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const created = await insertKeyControl(trx, enterpriseId, {
          name: body.name,
          description: body.description || null,
          created_by: caller.userId,
        });
        await recordChange(trx, caller, {
          action: 'create',
          entityType: 'control',
          entityId: created.id,
          details: { control_kind: 'key_control', name: created.name, description: created.description },
        });
        return created;
      });
    },

    /** An empty or unchanging body changes nothing and writes no entry. */
    async update(caller: Caller, id: string, body: Static<typeof UpdateKeyControlBody>, terms: ChangeTerms): Promise<Versioned<KeyControl>> {
      requireControlLibraryAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      const wanted = { name: body.name, description: body.description === undefined ? undefined : body.description || null };
      return inTransaction(db, async ({ trx }) => {
        const { row } = await updateVersioned(trx, caller, terms, {
          noun: 'Key control',
          lock: () => lockKeyControl(trx, enterpriseId, id),
          refuse: (current) => {
            if (current.archived) throw invalidState('An archived key control cannot be changed');
          },
          diff: (current) => {
            const diff = diffFields(current, wanted);
            return isEmptyDiff(diff) ? null : diff;
          },
          write: (_current, diff) => updateKeyControl(trx, enterpriseId, id, diff.set),
          audit: (_current, _updated, diff) => ({ entityType: 'control', entityId: id, details: { control_kind: 'key_control', changes: fromTo(diff) } }),
        });
        return versioned(row, versionState(row.row_version));
      });
    },

    /**
     * Archives the key control and its active sub-controls in one transaction, with an entry for each
     * (so that each sub-control's own history shows it). Archiving an archived key control changes nothing.
     */
    async archive(caller: Caller, id: string, terms: ChangeTerms): Promise<Versioned<{ alreadyArchived: boolean }>> {
      requireControlLibraryAdmin(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(db, async ({ trx }) => {
        let subControlIds: string[] = [];
        const { row, changed } = await archiveVersioned(trx, caller, terms, {
          noun: 'Key control',
          lock: () => lockKeyControl(trx, enterpriseId, id),
          isArchived: (current) => current.archived,
          again: 'unchanged',
          archive: async (current) => {
            const archived = { ...current, archived: true, row_version: await archiveKeyControl(trx, enterpriseId, id) };
            subControlIds = await archiveSubControlsOf(trx, enterpriseId, id);
            return archived;
          },
          audit: () => [
            { entityType: 'control', entityId: id, details: { control_kind: 'key_control', change: 'archived', archived_sub_control_ids: subControlIds } },
            ...subControlIds.map((subControlId) => ({
              entityType: 'control' as const,
              entityId: subControlId,
              details: { control_kind: 'sub_control', change: 'archived', key_control_id: id, with_key_control: true },
            })),
          ],
        });
        return versioned({ alreadyArchived: !changed }, versionState(row.row_version));
      });
    },
  };
}

export type KeyControlsService = ReturnType<typeof createKeyControlsService>;
