import type { Static } from 'typebox';
import { recordChange } from '../../../platform/audit/record-change.js';
import { requireControlsReader } from '../controls.policy.js';
import type { Caller } from '../../../platform/auth/principal.js';
import { diffFields, fromTo } from '../../../platform/changes/field-diff.js';
import { lockForChange } from '../../../platform/changes/versioned-change.js';
import type { Executor } from '../../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../../platform/db/transaction.js';
import { invalidState, notFound } from '../../../platform/errors/app-error.js';
import { loadPage, pageRequest, type Page } from '../../../platform/http/pagination.js';
import type { ChangeTerms } from '../../../platform/versions/change-terms.js';
import { versioned, type Versioned } from '../../../platform/versions/resource-state.js';
import { subControlState } from './sub-control-detail.js';
import { requireTestRecorder } from '../controls.policy.js';
import type { RecordTestBody, TestRecordView } from '../controls.schemas.js';
import { totalEffectiveness } from '../effectiveness-matrix.js';
import { presentTestRecord } from './sub-control-tests.presenter.js';
import { appendCurrentResult, countTestRecords, listTestRecords } from './sub-control-tests.repository.js';
import { findSubControlRow, lockSubControl, updateSubControl } from './sub-controls.repository.js';

type TestRecord = Static<typeof TestRecordView>;

/**
 * A sub-control's tests as records. A complete test replaces the whole current result (a field the test
 * does not carry, such as a justification, is cleared rather than left over from the test before) and is
 * appended to the history, which nobody can change afterwards.
 */
export function createSubControlTestsService({ db }: { db: Executor }) {
  return {
    /** The test record, with the sub-control's state after it (its ETag: the tag its detail now answers). */
    async record(caller: Caller, subControlId: string, body: Static<typeof RecordTestBody>, terms: ChangeTerms): Promise<Versioned<TestRecord>> {
      requireTestRecorder(caller);
      const enterpriseId = caller.enterpriseId;
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const current = await lockForChange(
          { noun: 'Sub-control', lock: () => lockSubControl(trx, enterpriseId, subControlId), stateOf: (row) => subControlState(trx, enterpriseId, row) },
          terms,
        );
        if (current.archived) throw invalidState('An archived sub-control cannot be tested');
        const result = {
          tod: body.tod,
          toe: body.toe,
          total_effectiveness: totalEffectiveness(body.tod, body.toe),
          testing_date: body.testing_date,
          tested_by: body.tested_by,
          evidence_notes: body.evidence_notes,
          tod_justification: body.tod_justification || null,
          toe_justification: body.toe_justification || null,
        };
        const updated = await updateSubControl(trx, enterpriseId, subControlId, result);
        const appended = await appendCurrentResult(trx, enterpriseId, updated, 'test', caller.userId);
        await recordChange(trx, caller, {
          action: 'update',
          entityType: 'control',
          entityId: subControlId,
          details: {
            control_kind: 'sub_control',
            key_control_id: current.key_control_id,
            test_id: appended.id,
            changes: fromTo(diffFields(current, result)),
          },
        });
        const record: TestRecord = {
          id: appended.id,
          sub_control_id: subControlId,
          source: 'test',
          ...result,
          recorded_at: appended.recorded_at,
          recorded_by: caller.userId,
          recorded_by_user: { id: caller.userId, full_name: caller.fullName },
        };
        return versioned(record, await subControlState(trx, enterpriseId, updated));
      });
    },

    /** Newest first (D2.5), every member role, like the library itself. */
    async list(caller: Caller, subControlId: string, query: { page?: number | undefined; page_size?: number | undefined }): Promise<Page<TestRecord>> {
      requireControlsReader(caller);
      const enterpriseId = caller.enterpriseId;
      if ((await findSubControlRow(db, enterpriseId, subControlId)) === undefined) throw notFound('Sub-control');
      const page = await loadPage(
        pageRequest(query),
        () => countTestRecords(db, enterpriseId, subControlId),
        (limit, offset) => listTestRecords(db, enterpriseId, subControlId, limit, offset),
      );
      return { data: page.data.map(presentTestRecord), pagination: page.pagination };
    },
  };
}

export type SubControlTestsService = ReturnType<typeof createSubControlTestsService>;
