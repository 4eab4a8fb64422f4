import { Type } from 'typebox';
import { errorResponses, tableFileDownload } from '../../../platform/http/schemas.js';
import { LIBRARY_COLUMNS, MAX_IMPORT_ROWS } from './library-file.js';

const TAGS = ['controls'];

const COLUMNS_TEXT =
  `Columns: ${LIBRARY_COLUMNS.join(', ')}. One row per sub-control with its key control repeated; a row with an empty ` +
  'sub_control carries a key control without sub-controls. A cell a spreadsheet would read as a formula (starting with =, +, -, @, ' +
  "tab or CR) or starting with ' is written with one more ' in front, which the import removes.";

export const exportLibrarySchema = {
  summary: 'Export the control library as a file',
  description: `Every member role (D5). The active key controls with their active sub-controls and current results, streamed as CSV or XLSX (file control-library-<YYYYMMDD>.<csv|xlsx>). ${COLUMNS_TEXT}`,
  operationId: 'controls.library.export',
  tags: TAGS,
  querystring: Type.Object({
    format: Type.Optional(Type.Enum(['csv', 'xlsx'], { default: 'csv', description: 'File format (default csv)' })),
  }),
  ...tableFileDownload(LIBRARY_COLUMNS),
};

const Counts = Type.Object({
  created: Type.Integer({ minimum: 0 }),
  updated: Type.Integer({ minimum: 0, description: 'Matched by name and changed' }),
  unchanged: Type.Integer({ minimum: 0, description: 'Matched by name, nothing to change' }),
});

export const ImportSummaryView = Type.Object({
  dry_run: Type.Boolean({ description: 'true: checked and counted in a transaction that was rolled back; nothing was written' }),
  rows: Type.Integer({ minimum: 0, description: 'Data rows read (blank lines skipped)' }),
  key_controls: Counts,
  sub_controls: Counts,
});

export const importLibrarySchema = {
  summary: 'Import the control library from a file',
  description:
    `Client admins only (D5). Body: the file itself, text/csv (UTF-8) or an .xlsx workbook ` +
    `(application/vnd.openxmlformats-officedocument.spreadsheetml.sheet; its first sheet), at most ${MAX_IMPORT_ROWS.toLocaleString('en-US')} ` +
    `data rows. ${COLUMNS_TEXT} Only key_control and sub_control are required columns; a column left out leaves those fields as they ` +
    'are, an empty cell clears them; total_effectiveness is computed from tod and toe (3.5) and its column is ignored. Active key controls ' +
    'are matched by exact name, sub-controls by name within their key control: matched ones are updated where they differ, the rest ' +
    'created. All rows or none: any refused cell gives 422 VALIDATION_ERROR naming each by row (the header is row 1) and column in ' +
    'details.fields (and details.rows), and nothing is written. One audit entry per created or changed record; a result that changes is ' +
    'appended to the test history. dry_run=true checks and counts without writing.',
  operationId: 'controls.library.import',
  tags: TAGS,
  querystring: Type.Object({
    dry_run: Type.Optional(Type.Boolean({ default: false, description: 'true: check and count, write nothing' })),
  }),
  response: {
    200: Type.Object({ data: ImportSummaryView, message: Type.String() }),
    ...errorResponses([413, 415, 422]),
  },
};
