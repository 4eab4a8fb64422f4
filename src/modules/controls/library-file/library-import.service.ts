import { auditFrom, type AuditEvent } from '../../../platform/audit/audit-events.js';
import { writeAuditEntries } from '../../../platform/audit/audit-writer.js';
import type { Caller } from '../../../platform/auth/principal.js';
import type { Transaction } from 'kysely';
import type { DB, Executor } from '../../../platform/db/schema.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { AppError } from '../../../platform/errors/app-error.js';
import { diffFields, fromTo } from '../../../platform/changes/field-diff.js';
import { requireControlLibraryAdmin } from '../controls.policy.js';
import { totalEffectiveness } from '../effectiveness-matrix.js';
import { insertKeyControls, updateKeyControl } from '../library/key-controls.repository.js';
import { readLibraryFile, type ImportRow, type RowProblem } from './library-file.js';
import { CSV_TYPE, UnreadableFile, XLSX_TYPE, readUpload } from './library-reader.js';
import { planImport, type KeyControlPlan, type SubControlPlan } from './library-plan.js';
import { loadActiveLibrary, lockLibraryForImport } from './library.repository.js';
import { appendTestRecords, currentResultRecord } from '../library/sub-control-tests.repository.js';
import { insertSubControls, updateSubControl, type NewSubControl, type SubControlChanges } from '../library/sub-controls.repository.js';

interface Counts {
  created: number;
  updated: number;
  unchanged: number;
}

export interface ImportSummary {
  dry_run: boolean;
  rows: number;
  key_controls: Counts;
  sub_controls: Counts;
}

/** 422 naming every refused cell by row and column; nothing was written. */
export function importRefused(problems: readonly RowProblem[]): AppError {
  return new AppError('VALIDATION_ERROR', `The file was not imported: ${problems.length} problem${problems.length === 1 ? '' : 's'}`, {
    fields: problems.map((problem) => ({ field: `row ${problem.row}, ${problem.column}`, message: problem.message })),
    rows: problems,
  });
}

/** Carries a dry run's summary out of its transaction, which it rolls back. */
class DryRunDone extends Error {
  constructor(readonly summary: ImportSummary) {
    super('dry run');
  }
}

type Trx = Transaction<DB>;
type Member = Caller & { enterpriseId: string };

/**
 * POST /controls/import: the library from a file, all rows or none. Existing active key controls are
 * matched by name and sub-controls by name within them; what matches is updated where it differs, what
 * does not is created; one audit entry per created or changed record, and a result that moves appends to
 * the sub-control's test history. A dry run does all of it in a transaction it rolls back, so it refuses
 * exactly what the real import would. New records and their entries go in multi-row statements: an import
 * of thousands of rows costs a few dozen round trips, not several per row.
 */
export function createLibraryImportService({ db }: { db: Executor }) {
  async function applyPlans(trx: Trx, caller: Member, plans: readonly KeyControlPlan[], summary: ImportSummary): Promise<void> {
    const enterpriseId = caller.enterpriseId;
    const events: AuditEvent[] = [];
    const audit = (action: 'create' | 'update', entityId: string, details: Record<string, unknown>) =>
      events.push({ enterpriseId, ...auditFrom(caller), action, entityType: 'control', entityId, details: { ...details, source: 'import' } });
    const history: Parameters<typeof appendTestRecords>[2][number][] = [];

    const createdKeys = await insertKeyControls(
      trx,
      enterpriseId,
      plans.filter((plan) => plan.existing === null).map((plan) => ({ name: plan.name, description: plan.description ?? null, created_by: caller.userId })),
    );
    const keyIds = new Map(createdKeys.map((row) => [row.name, row.id]));
    const newSubs = plans.flatMap((plan) =>
      plan.subControls.filter((sub) => sub.existing === null).map((sub) => newSubControl(plan.existing?.id ?? keyIds.get(plan.name)!, sub, caller.userId)),
    );
    const createdSubs = new Map((await insertSubControls(trx, enterpriseId, newSubs)).map((row) => [`${row.key_control_id}\u0000${row.name}`, row]));

    for (const plan of plans) {
      const keyControlId = plan.existing?.id ?? keyIds.get(plan.name)!;
      if (plan.existing === null) {
        audit('create', keyControlId, { control_kind: 'key_control', name: plan.name, description: plan.description ?? null });
        summary.key_controls.created += 1;
      } else {
        const changes = plan.description === undefined ? {} : fromTo(diffFields(plan.existing, { description: plan.description }));
        if (Object.keys(changes).length > 0) {
          await updateKeyControl(trx, enterpriseId, keyControlId, { description: plan.description ?? null });
          audit('update', keyControlId, { control_kind: 'key_control', changes });
          summary.key_controls.updated += 1;
        } else {
          summary.key_controls.unchanged += 1;
        }
      }
      for (const sub of plan.subControls) {
        if (sub.existing === null) {
          const created = createdSubs.get(`${keyControlId}\u0000${sub.name}`)!;
          if (created.tod !== null || created.toe !== null || created.testing_date !== null) {
            history.push(currentResultRecord(created, 'import', caller.userId));
          }
          const { id, archived: _archived, created_at: _createdAt, updated_at: _updatedAt, ...content } = created;
          audit('create', id, { control_kind: 'sub_control', ...content });
          summary.sub_controls.created += 1;
          continue;
        }
        const updated = await updateExisting(trx, enterpriseId, sub);
        if (updated === null) {
          summary.sub_controls.unchanged += 1;
          continue;
        }
        if ('tod' in updated.changes || 'toe' in updated.changes || 'testing_date' in updated.changes) {
          history.push(currentResultRecord(updated.row, 'import', caller.userId));
        }
        audit('update', updated.row.id, { control_kind: 'sub_control', key_control_id: keyControlId, changes: updated.changes });
        summary.sub_controls.updated += 1;
      }
    }
    await appendTestRecords(trx, enterpriseId, history);
    await writeAuditEntries(trx, events);
  }

  return {
    /** The upload as it came (CSV text or workbook bytes): read, checked row by row, then imported. */
    async importFile(caller: Caller, contentType: string, body: string | Buffer | undefined, dryRun: boolean): Promise<ImportSummary> {
      requireControlLibraryAdmin(caller);
      if (contentType !== CSV_TYPE && contentType !== XLSX_TYPE) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Upload the library as ${CSV_TYPE} or ${XLSX_TYPE}`);
      }
      if (body === undefined || body.length === 0) throw importRefused([{ row: 1, column: 'file', message: 'is empty' }]);
      let records: string[][];
      try {
        records = await readUpload(contentType, body);
      } catch (error) {
        if (error instanceof UnreadableFile) throw importRefused([error.problem]);
        throw error;
      }
      return this.importLibrary(caller, readLibraryFile(records), dryRun);
    },

    async importLibrary(caller: Caller, file: { rows: ImportRow[]; problems: RowProblem[] }, dryRun: boolean): Promise<ImportSummary> {
      requireControlLibraryAdmin(caller);
      if (file.problems.length > 0) throw importRefused(file.problems);
      const summary: ImportSummary = {
        dry_run: dryRun,
        rows: file.rows.length,
        key_controls: { created: 0, updated: 0, unchanged: 0 },
        sub_controls: { created: 0, updated: 0, unchanged: 0 },
      };
      try {
        return await inTransaction(db, async ({ trx }) => {
          await lockLibraryForImport(trx, caller.enterpriseId);
          const { plans, problems } = planImport(file.rows, await loadActiveLibrary(trx, caller.enterpriseId));
          if (problems.length > 0) throw importRefused(problems);
          await applyPlans(trx, caller, plans, summary);
          if (dryRun) throw new DryRunDone(summary);
          return summary;
        });
      } catch (error) {
        if (error instanceof DryRunDone) return error.summary;
        throw error;
      }
    },
  };
}

export type LibraryImportService = ReturnType<typeof createLibraryImportService>;

/** A sub-control the file names for the first time, with the results its row carries. */
function newSubControl(keyControlId: string, plan: SubControlPlan, createdBy: string): NewSubControl {
  const { description, ...results } = plan.values;
  const tod = results.tod ?? null;
  const toe = results.toe ?? null;
  return {
    ...results,
    key_control_id: keyControlId,
    name: plan.name,
    description: description ?? null,
    tod,
    toe,
    total_effectiveness: totalEffectiveness(tod, toe),
    created_by: createdBy,
  };
}

/** A matched sub-control updated where the file differs from it; null when nothing differs. */
async function updateExisting(trx: Trx, enterpriseId: string, plan: SubControlPlan) {
  const existing = plan.existing!;
  const { description, ...results } = plan.values;
  const wanted: SubControlChanges & { description?: string | null } = { ...results };
  if (description !== undefined) wanted.description = description;
  const tod = wanted.tod !== undefined ? wanted.tod : existing.tod;
  const toe = wanted.toe !== undefined ? wanted.toe : existing.toe;
  wanted.total_effectiveness = totalEffectiveness(tod, toe);
  const changes = fromTo(diffFields(existing, wanted));
  if (Object.keys(changes).length === 0) return null;
  return { row: await updateSubControl(trx, enterpriseId, existing.id, wanted), changes };
}
