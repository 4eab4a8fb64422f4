import PDFDocument from 'pdfkit';
import { SCORE_LEVELS } from './risk-heat-map.js';
import { bandColour, ratingText, type ReportModel } from './report-model.js';

/**
 * The BRA report as a PDF (pdfkit, its standard fonts: no browser, no font files). Pages are buffered so
 * that, once the content is laid out, every page gets its footer (the snapshot or the draft notice, and
 * "page n of m") and, for a draft, the DRAFT mark.
 */
type Doc = PDFKit.PDFDocument;

const MARGIN = 50;

function heading(doc: Doc, text: string): void {
  if (doc.y > doc.page.height - 160) doc.addPage();
  doc.moveDown(0.8).font('Helvetica-Bold').fontSize(14).fillColor('#1F3A5F').text(text, MARGIN).moveDown(0.3);
  doc.font('Helvetica').fontSize(10).fillColor('black');
}

function pairs(doc: Doc, rows: Array<[string, string]>): void {
  for (const [label, value] of rows) {
    doc.font('Helvetica-Bold').text(`${label}: `, MARGIN, doc.y, { continued: true }).font('Helvetica').text(value);
  }
}

function heatMap(doc: Doc, title: string, grid: number[][]): void {
  const cell = 34;
  if (doc.y > doc.page.height - (cell * 6 + 120)) doc.addPage();
  doc.font('Helvetica-Bold').fontSize(11).text(title, MARGIN).moveDown(0.3);
  const top = doc.y + 4;
  const left = MARGIN + 60;
  doc.font('Helvetica').fontSize(8).text('Impact', MARGIN, top + (cell * 5) / 2 - 4, { width: 40 });
  SCORE_LEVELS.forEach((_, row) => {
    const impact = 5 - row;
    doc.fontSize(9).fillColor('black').text(String(impact), left - 14, top + row * cell + cell / 2 - 4);
    SCORE_LEVELS.forEach((likelihood, column) => {
      const x = left + column * cell;
      const y = top + row * cell;
      doc.rect(x, y, cell, cell).fillAndStroke(bandColour(impact * likelihood), '#FFFFFF');
      const count = grid[impact - 1]![likelihood - 1]!;
      doc.fillColor('black').fontSize(11).text(count === 0 ? '' : String(count), x, y + cell / 2 - 6, { width: cell, align: 'center' });
    });
  });
  SCORE_LEVELS.forEach((likelihood, column) => {
    doc.fontSize(9).text(String(likelihood), left + column * cell, top + cell * 5 + 4, { width: cell, align: 'center' });
  });
  doc.fontSize(8).text('Likelihood', left, top + cell * 5 + 16, { width: cell * 5, align: 'center' });
  doc.x = MARGIN;
  doc.y = top + cell * 5 + 34;
  doc.fontSize(10);
}

function scenarioTable(doc: Doc, model: ReportModel): void {
  for (const scenario of model.scenarios) {
    if (doc.y > doc.page.height - 150) doc.addPage();
    doc.font('Helvetica-Bold').fontSize(10).text(scenario.name, MARGIN);
    doc.font('Helvetica').fontSize(9);
    doc.text(`Category: ${scenario.category}${scenario.included ? '' : ' (excluded from the assessment)'}`);
    doc.text(`Inherent: ${ratingText(scenario.inherent)}`);
    if (scenario.inherent?.justification) doc.text(`   Justification: ${scenario.inherent.justification}`);
    doc.text(`Residual: ${ratingText(scenario.residual)}${scenario.above_appetite ? `  ABOVE APPETITE (threshold ${model.threshold})` : ''}${scenario.above_appetite && scenario.acceptance !== null ? `, ${scenario.acceptance}` : ''}`);
    if (scenario.residual?.justification) doc.text(`   Justification: ${scenario.residual.justification}`);
    doc.text(`Control effectiveness: ${scenario.control_effectiveness ?? 'not assessed'}`);
    for (const control of scenario.controls) {
      doc.text(`   • ${control.key_control_name} / ${control.sub_control_name}: ToD ${control.tod ?? '—'}, ToE ${control.toe ?? '—'}, ${control.total_effectiveness ?? 'not assessed'}`);
    }
    doc.moveDown(0.5);
  }
}

function pageFurniture(doc: Doc, model: ReportModel): void {
  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index += 1) {
    doc.switchToPage(index);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // writing in the margin must not open a new page
    doc.font('Helvetica').fontSize(8).fillColor('#555555');
    doc.text(`${model.footer} · Page ${index - range.start + 1} of ${range.count}`, MARGIN, doc.page.height - 35, {
      width: doc.page.width - 2 * MARGIN,
      align: 'center',
      lineBreak: false,
    });
    if (model.draft) {
      doc.font('Helvetica-Bold').fontSize(12).fillColor('#C0392B').text('DRAFT', MARGIN, 20, { width: doc.page.width - 2 * MARGIN, align: 'right', lineBreak: false });
    }
    doc.page.margins.bottom = bottom;
  }
}

export function renderReportPdf(model: ReportModel): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, bufferPages: true, info: { Title: model.title } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(20).fillColor('#1F3A5F').text('Business Risk Assessment', MARGIN, 110);
  doc.fontSize(16).fillColor('black').text(model.title).moveDown(1);
  doc.font('Helvetica').fontSize(11);
  pairs(doc, model.cover);

  heading(doc, 'Executive summary');
  pairs(doc, model.summary);
  doc.moveDown(0.3).font('Helvetica-Bold').text('Scenarios above appetite:');
  doc.font('Helvetica').text(model.above_appetite.length === 0 ? 'None' : model.above_appetite.map((name) => `• ${name}`).join('\n'));

  heading(doc, 'Risk heat maps');
  heatMap(doc, 'Inherent risk', model.heat_maps.inherent);
  heatMap(doc, 'Residual risk', model.heat_maps.residual);

  heading(doc, 'Scenarios, ratings and controls');
  scenarioTable(doc, model);
  if (model.bra_wide_controls.length > 0) {
    doc.font('Helvetica-Bold').fontSize(10).text('Controls linked to the whole BRA');
    doc.font('Helvetica').fontSize(9);
    for (const control of model.bra_wide_controls) {
      doc.text(`• ${control.key_control_name} / ${control.sub_control_name}: ToD ${control.tod ?? '—'}, ToE ${control.toe ?? '—'}, ${control.total_effectiveness ?? 'not assessed'}`);
    }
  }

  heading(doc, 'Mitigation actions');
  if (model.actions.length === 0) doc.text('None');
  for (const action of model.actions) {
    doc.font('Helvetica-Bold').text(action.action, MARGIN).font('Helvetica').fontSize(9);
    doc.text(`Owner ${action.owner} · ${action.priority} priority · ${action.status.replace('_', ' ')} · due ${action.due_date}${action.scenario === null ? '' : ` · ${action.scenario}`}`);
    doc.fontSize(10).moveDown(0.3);
  }

  heading(doc, 'Risk acceptances');
  if (model.acceptances.length === 0) doc.text('None');
  for (const acceptance of model.acceptances) {
    doc.font('Helvetica-Bold').text(acceptance.scenario, MARGIN).font('Helvetica').fontSize(9);
    doc.text(`Accepted by ${acceptance.accepted_by} on ${acceptance.accepted_on}, until ${acceptance.expires_on}`);
    doc.text(`Rationale: ${acceptance.rationale}`);
    if (acceptance.conditions !== null) doc.text(`Conditions: ${acceptance.conditions}`);
    doc.fontSize(10).moveDown(0.3);
  }

  heading(doc, 'Evidence');
  if (model.evidence.length === 0) doc.text('None');
  for (const file of model.evidence) {
    doc.font('Helvetica-Bold').text(file.name, MARGIN).font('Helvetica').fontSize(8);
    doc.text(`${file.attached_to} · ${file.media_type} · ${file.size_bytes} bytes`);
    doc.font('Courier').text(`SHA-256 ${file.sha256}`).font('Helvetica');
    doc.fontSize(10).moveDown(0.3);
  }

  heading(doc, 'Approval');
  doc.text(model.draft ? 'Not approved: this is a draft.' : `Final comment: ${model.final_comment ?? '—'}`);

  pageFurniture(doc, model);
  doc.end();
  return done;
}
