import { recordChange } from '../../platform/audit/record-change.js';
import type { Caller } from '../../platform/auth/principal.js';
import type { Executor } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { createBraSnapshotsService } from '../bras/history/snapshots.service.js';
import { buildReportModel } from './report-model.js';
import { renderReportPdf } from './report-pdf.js';
import { renderReportXlsx } from './report-xlsx.js';
import { reportNames } from './report.repository.js';
import { REPORT_CONTENT_TYPES, type ReportQuery } from './report.schemas.js';
import { requireRegisterReader } from './reporting.policy.js';

/**
 * A BRA's report (reporting.bra_report). The BRA module decides what it is built from and who may read it
 * (its approval snapshot, or live data for a draft; the BRA's read rule); this lays it out and records the
 * export in the audit trail before handing the file over.
 */
export function createReportService({ db }: { db: Executor }) {
  return {
    async report(caller: Caller, braId: string, query: ReportQuery) {
      requireRegisterReader(caller);
      const format = query.format ?? 'pdf';
      const source = await createBraSnapshotsService({ db }).reportSource(caller, braId);
      const names = await reportNames(db, caller.enterpriseId, source.content.approved_by);
      const model = buildReportModel(source, { enterpriseName: names.enterprise_name, approverName: names.approver_name });
      const file = format === 'pdf' ? await renderReportPdf(model) : await renderReportXlsx(model);
      const fileName = `bra-report-${source.content.id}.${format}`;
      await inTransaction(db, async ({ trx }) =>
        recordChange(trx, caller, {
          action: 'export',
          entityType: 'bra',
          entityId: source.content.id,
          details: { export: 'bra_report', name: source.content.name, format, file_name: fileName, basis: source.basis, snapshot_id: source.snapshot_id },
        }),
      );
      return { file, fileName, contentType: REPORT_CONTENT_TYPES[format] };
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
