import { auditFrom } from '../../platform/audit/audit-events.js';
import { writeAudit } from '../../platform/audit/audit-writer.js';
import type { Caller } from '../../platform/auth/principal.js';
import type { Executor } from '../../platform/db/schema.js';
import type { Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { AppError } from '../../platform/http/errors.js';
import { changedFields } from './changes.js';
import { requireControlLibraryAdmin } from './controls.policy.js';
import { totalEffectiveness } from './effectiveness-matrix.js';
import { insertKeyControl, updateKeyControl } from './key-controls.repository.js';
import { readLibraryFile, type ImportRow, type RowProblem } from './library-file.js';
import { CSV_TYPE, UnreadableFile, XLSX_TYPE, readUpload } from './library-reader.js';
import { planImport, type KeyControlPlan, type SubControlPlan } from './library-plan.js';
import { loadActiveLibrary, lockLibraryForImport } from './library.repository.js';
import { appendCurrentResult } from './sub-control-tests.repository.js';
import { insertSubControl, updateSubControl, type SubControlChanges } from './sub-controls.repository.js';

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

/**
 * POST /controls/import: the library from a file, all rows or none. Existing active key controls are
 * matched by name and sub-controls by name within them; what matches is updated where it differs, what
 * does not is created; one audit entry per created or changed record, and a result that moves appends to
 * the sub-control's test history. A dry run does all of it in a transaction it rolls back, so it refuses
 * exactly what the real import would.
 */
export function createLibraryImportService({ db }: { db: Executor }) {
  async function applyKeyControl(trx: Trx, caller: Caller & { enterpriseId: string }, plan: KeyControlPlan, summary: ImportSummary) {
    const enterpriseId = caller.enterpriseId;
    const audit = (action: 'create' | 'update', entityId: string, details: Record<string, unknown>) =>
      writeAudit(trx, { enterpriseId, ...auditFrom(caller), action, entityType: 'control', entityId, details: { ...details, source: 'import' } });

    let keyControlId: string;
    if (plan.existing === null) {
      const created = await insertKeyControl(trx, enterpriseId, { name: plan.name, description: plan.description ?? null, created_by: caller.userId });
      await audit('create', created.id, { control_kind: 'key_control', name: created.name, description: created.description });
      keyControlId = created.id;
      summary.key_controls.created += 1;
    } else {
      keyControlId = plan.existing.id;
      const changes = plan.description === undefined ? {} : changedFields(plan.existing, { description: plan.description });
      if (Object.keys(changes).length > 0) {
        await updateKeyControl(trx, enterpriseId, keyControlId, { description: plan.description ?? null });
        await audit('update', keyControlId, { control_kind: 'key_control', changes });
        summary.key_controls.updated += 1;
      } else {
        summary.key_controls.unchanged += 1;
      }
    }
    for (const sub of plan.subControls) await applySubControl(trx, caller, keyControlId, sub, summary, audit);
  }

  async function applySubControl(
    trx: Trx,
    caller: Caller & { enterpriseId: string },
    keyControlId: string,
    plan: SubControlPlan,
    summary: ImportSummary,
    audit: (action: 'create' | 'update', entityId: string, details: Record<string, unknown>) => Promise<string>,
  ) {
    const enterpriseId = caller.enterpriseId;
    const { description, ...results } = plan.values;
    if (plan.existing === null) {
      const tod = results.tod ?? null;
      const toe = results.toe ?? null;
      const created = await insertSubControl(trx, enterpriseId, {
        ...results,
        key_control_id: keyControlId,
        name: plan.name,
        description: description ?? null,
        tod,
        toe,
        total_effectiveness: totalEffectiveness(tod, toe),
        created_by: caller.userId,
      });
      if (created.tod !== null || created.toe !== null || created.testing_date !== null) {
        await appendCurrentResult(trx, enterpriseId, created, 'import', caller.userId);
      }
      const { id: _id, archived: _archived, created_at: _createdAt, updated_at: _updatedAt, ...content } = created;
      await audit('create', created.id, { control_kind: 'sub_control', ...content });
      summary.sub_controls.created += 1;
      return;
    }
    const wanted: SubControlChanges & { description?: string | null } = { ...results };
    if (description !== undefined) wanted.description = description;
    const tod = wanted.tod !== undefined ? wanted.tod : plan.existing.tod;
    const toe = wanted.toe !== undefined ? wanted.toe : plan.existing.toe;
    wanted.total_effectiveness = totalEffectiveness(tod, toe);
    const changes = changedFields(plan.existing, wanted);
    if (Object.keys(changes).length === 0) {
      summary.sub_controls.unchanged += 1;
      return;
    }
    const updated = await updateSubControl(trx, enterpriseId, plan.existing.id, wanted);
    if ('tod' in changes || 'toe' in changes || 'testing_date' in changes) {
      await appendCurrentResult(trx, enterpriseId, updated, 'import', caller.userId);
    }
    await audit('update', updated.id, { control_kind: 'sub_control', key_control_id: keyControlId, changes });
    summary.sub_controls.updated += 1;
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
          for (const plan of plans) await applyKeyControl(trx, caller, plan, summary);
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
