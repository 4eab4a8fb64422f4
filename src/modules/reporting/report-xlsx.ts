import ExcelJS from 'exceljs';
import { formulaSafe } from '../../platform/export/csv-cell.js';
import { SCORE_LEVELS } from './risk-heat-map.js';
import { bandColour, ratingText, type ReportModel } from './report-model.js';

/**
 * The BRA report as a workbook (exceljs): a sheet per part. Every sheet's printed pages carry the footer
 * (the snapshot or the draft notice, page n of m) and, for a draft, a DRAFT header; each sheet also opens
 * with the draft notice on screen. Text cells are formula-safe.
 */
type Cell = string | number | null;

const safe = (cells: Cell[]) => cells.map((cell) => (typeof cell === 'string' ? formulaSafe(cell) : cell));

function sheet(workbook: ExcelJS.Workbook, model: ReportModel, name: string): ExcelJS.Worksheet {
  const ws = workbook.addWorksheet(name);
  ws.headerFooter.oddFooter = `&C${model.footer.replace(/&/g, '&&')} · Page &P of &N`;
  if (model.draft) {
    ws.headerFooter.oddHeader = '&R&"-,Bold"DRAFT';
    const banner = ws.addRow(['DRAFT: not approved, live data']);
    banner.font = { bold: true, color: { argb: 'FFC0392B' } };
  }
  return ws;
}

function fill(hex: string): ExcelJS.Fill {
  return { type: 'pattern', pattern: 'solid', fgColor: { argb: `FF${hex.slice(1)}` } };
}

function heatMap(ws: ExcelJS.Worksheet, title: string, grid: number[][]): void {
  ws.addRow([title]).font = { bold: true };
  for (const impact of [...SCORE_LEVELS].reverse()) {
    const row = ws.addRow([`Impact ${impact}`, ...SCORE_LEVELS.map((likelihood) => grid[impact - 1]![likelihood - 1]!)]);
    SCORE_LEVELS.forEach((likelihood, index) => {
      row.getCell(index + 2).fill = fill(bandColour(impact * likelihood));
    });
  }
  ws.addRow(['', ...SCORE_LEVELS.map((likelihood) => `Likelihood ${likelihood}`)]);
  ws.addRow([]);
}

export async function renderReportXlsx(model: ReportModel): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.title = model.title;

  const cover = sheet(workbook, model, 'Cover');
  cover.addRow(['Business Risk Assessment', model.title]).font = { bold: true };
  for (const [label, value] of model.cover) cover.addRow(safe([label, value]));
  cover.addRow([]);
  cover.addRow(['Executive summary']).font = { bold: true };
  for (const [label, value] of model.summary) cover.addRow(safe([label, value]));
  cover.addRow(['Scenarios above appetite', model.above_appetite.length === 0 ? 'None' : null]);
  for (const name of model.above_appetite) cover.addRow(safe(['', name]));
  cover.addRow([]);
  cover.addRow(safe(['Final comment', model.draft ? 'Not approved: this is a draft.' : (model.final_comment ?? '—')]));
  cover.getColumn(1).width = 26;
  cover.getColumn(2).width = 60;

  const maps = sheet(workbook, model, 'Heat maps');
  heatMap(maps, 'Inherent risk', model.heat_maps.inherent);
  heatMap(maps, 'Residual risk', model.heat_maps.residual);

  const scenarios = sheet(workbook, model, 'Scenarios');
  scenarios.addRow(['Scenario', 'Category', 'Included', 'Inherent', 'Inherent justification', 'Residual', 'Residual justification', 'Above appetite', 'Acceptance', 'Control effectiveness']).font = { bold: true };
  for (const s of model.scenarios) {
    scenarios.addRow(
      safe([
        s.name,
        s.category,
        s.included ? 'yes' : 'no',
        ratingText(s.inherent),
        s.inherent?.justification ?? null,
        ratingText(s.residual),
        s.residual?.justification ?? null,
        s.above_appetite ? 'yes' : 'no',
        s.acceptance,
        s.control_effectiveness ?? 'not assessed',
      ]),
    );
  }

  const controls = sheet(workbook, model, 'Controls');
  controls.addRow(['Scenario', 'Key control', 'Sub-control', 'ToD', 'ToE', 'Total effectiveness']).font = { bold: true };
  for (const s of model.scenarios) {
    for (const c of s.controls) controls.addRow(safe([s.name, c.key_control_name, c.sub_control_name, c.tod, c.toe, c.total_effectiveness]));
  }
  for (const c of model.bra_wide_controls) controls.addRow(safe(['(whole BRA)', c.key_control_name, c.sub_control_name, c.tod, c.toe, c.total_effectiveness]));

  const actions = sheet(workbook, model, 'Actions');
  actions.addRow(['Action', 'Owner', 'Priority', 'Status', 'Due', 'Scenario']).font = { bold: true };
  for (const a of model.actions) actions.addRow(safe([a.action, a.owner, a.priority, a.status, a.due_date, a.scenario]));

  const acceptances = sheet(workbook, model, 'Acceptances');
  acceptances.addRow(['Scenario', 'Accepted by', 'Accepted on', 'Until', 'Rationale', 'Conditions']).font = { bold: true };
  for (const a of model.acceptances) acceptances.addRow(safe([a.scenario, a.accepted_by, a.accepted_on, a.expires_on, a.rationale, a.conditions]));

  const evidence = sheet(workbook, model, 'Evidence');
  evidence.addRow(['Attached to', 'File', 'Media type', 'Bytes', 'SHA-256']).font = { bold: true };
  for (const file of model.evidence) evidence.addRow(safe([file.attached_to, file.name, file.media_type, file.size_bytes, file.sha256]));

  return Buffer.from(await workbook.xlsx.writeBuffer());
}
