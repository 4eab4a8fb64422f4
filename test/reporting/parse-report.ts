import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** Reports read back as a reader would: each PDF page's text, and each sheet's cells, footers and headers. */

// The standard fonts a PDF names without embedding them (pdfkit's Helvetica), for pdfjs to measure text with.
const standardFontDataUrl = fileURLToPath(new URL('../../node_modules/pdfjs-dist/standard_fonts/', import.meta.url));

export async function pdfPages(file: Buffer): Promise<string[]> {
  const document = await getDocument({ data: new Uint8Array(file), standardFontDataUrl, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const content = await (await document.getPage(number)).getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
    pages.push(text.replace(/\s+/g, ' '));
  }
  await document.destroy();
  return pages;
}

export interface SheetText {
  name: string;
  cells: string[];
  header: string | undefined;
  footer: string | undefined;
}

export async function xlsxSheets(file: Buffer): Promise<SheetText[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file as unknown as ArrayBuffer);
  return workbook.worksheets.map((sheet) => {
    const cells: string[] = [];
    sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.value))));
    return { name: sheet.name, cells, header: sheet.headerFooter.oddHeader, footer: sheet.headerFooter.oddFooter };
  });
}
