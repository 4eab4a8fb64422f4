import { Type, type Static } from 'typebox';
import { Uuid, errorResponses } from '../../platform/http/schemas.js';

export const ReportParams = Type.Object({ bra_id: Uuid('The BRA') });

export const ReportQuery = Type.Object({
  format: Type.Optional(Type.Enum(['pdf', 'xlsx'], { default: 'pdf', description: 'pdf (default) or xlsx' })),
});
export type ReportQuery = Static<typeof ReportQuery>;

export const REPORT_CONTENT_TYPES = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

export const reportSchema = {
  summary: "A BRA's report (board pack) as PDF or XLSX",
  description:
    'Cover (enterprise, entity, unit, period, status, assessor, approver and date, snapshot id), executive summary (counts, the scenarios above ' +
    'appetite), inherent and residual heat maps as coloured grids, the scenarios with ratings and justifications, the controls of each scenario ' +
    'with ToD, ToE and effectiveness, the mitigation actions and the final comment. An approved BRA’s report is built from its approval ' +
    'snapshot alone (the appetite and control results pinned there), so it comes out the same whatever changed since; any other BRA’s from its ' +
    'live data, marked DRAFT on every page. Every page’s footer carries the snapshot id (or the draft notice) and the page number. File name ' +
    'bra-report-<BRA id>.<pdf|xlsx>. Readable by whoever may read the BRA (D5); audited as an export.',
  operationId: 'reporting.bra_report',
  tags: ['reporting'],
  params: ReportParams,
  querystring: ReportQuery,
  produces: Object.values(REPORT_CONTENT_TYPES),
  response: {
    200: {
      description: 'The report file',
      content: {
        'application/pdf': { schema: Type.String({ format: 'binary' }) },
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: Type.String({ format: 'binary' }) },
      },
    },
    ...errorResponses([404]),
  },
};
