import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { countAuditEntries } from '../support/audit.js';
import { createEnterprise, createUser, type TestUser } from '../support/factories.js';
import { parseCsv } from '../audit-trail/csv-parse.js';

const CSV = 'text/csv';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** GET /controls/export and POST /controls/import: the library as a spreadsheet, all rows or none. */
describe('control library export and import', async () => {
  const ctx = await createTestContext();
  const headersOf = sessionHeaders(ctx);
  const source = await createEnterprise(ctx);
  const target = await createEnterprise(ctx);
  const sourceAdmin = await createUser(ctx, { role: 'admin', enterpriseId: source.id });
  const targetAdmin = await createUser(ctx, { role: 'admin', enterpriseId: target.id });
  const reviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: source.id });
  const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: source.id });
  const superAdmin = await createUser(ctx, { role: 'super_admin' });

  const api = async (user: TestUser, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, contentType?: string) =>
    ctx.app.inject({
      method,
      url: `/api/v1/controls${url}`,
      headers: { ...(await headersOf(user)), ...(contentType !== undefined ? { 'content-type': contentType } : {}) },
      ...(payload !== undefined ? { payload: payload as string } : {}),
    });
  const exportCsv = async (user: TestUser) => {
    const response = await api(user, 'GET', '/export?format=csv');
    expect(response.statusCode, response.body).toBe(200);
    return response.body;
  };
  const importFile = (user: TestUser, body: string | Buffer, contentType = CSV, query = '') => api(user, 'POST', `/import${query}`, body, contentType);
  const libraryCount = async (enterpriseId: string) => {
    const keys = await ctx.db.selectFrom('key_controls').select(ctx.db.fn.countAll<number>().as('n')).where('enterprise_id', '=', enterpriseId).executeTakeFirstOrThrow();
    const subs = await ctx.db.selectFrom('sub_controls').select(ctx.db.fn.countAll<number>().as('n')).where('enterprise_id', '=', enterpriseId).executeTakeFirstOrThrow();
    return { keys: Number(keys.n), subs: Number(subs.n) };
  };

  // The source library, built through the API: awkward text on purpose (formulas, quotes, commas, line breaks).
  const keyA = (await api(sourceAdmin, 'POST', '/key-controls', { name: '=HYPERLINK("http://evil.example")', description: 'Line one\nline "two", three' })).json().data;
  const keyB = (await api(sourceAdmin, 'POST', '/key-controls', { name: 'Access management', description: "'Quoted on purpose" })).json().data;
  await api(sourceAdmin, 'POST', '/key-controls', { name: 'Business continuity (no sub-controls yet)' });
  const subA = (await api(sourceAdmin, 'POST', '/sub-controls', { key_control_id: keyA.id, name: '+Formula sub', description: '@risky', tod: 'B', toe: '3' })).json().data;
  await api(assessor, 'PATCH', `/sub-controls/${subA.id}`, { testing_date: '2026-03-31', tested_by: '-Dash tester', evidence_notes: 'Evidence, with "quotes"', toe_justification: 'Late sign-offs', testing_frequency: 'quarterly' });
  await api(sourceAdmin, 'POST', '/sub-controls', { key_control_id: keyB.id, name: 'Quarterly access review', tod: 'A', toe: '1' });
  await api(sourceAdmin, 'POST', '/sub-controls', { key_control_id: keyB.id, name: 'Leavers removed within a day' });

  it('exports the active library as CSV with every formula cell neutralised', async () => {
    const text = await exportCsv(reviewer);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([
      'key_control', 'key_control_description', 'sub_control', 'sub_control_description', 'tod', 'toe', 'total_effectiveness',
      'testing_date', 'tested_by', 'evidence_notes', 'tod_justification', 'toe_justification', 'testing_frequency',
    ]);
    expect(rows).toHaveLength(4);
    for (const cell of rows.flat()) expect(cell).not.toMatch(/^[=+\-@]/);
    expect(rows).toContainEqual([
      '\'=HYPERLINK("http://evil.example")', 'Line one\nline "two", three', "'+Formula sub", "'@risky", 'B', '3', 'Effective',
      '2026-03-31', "'-Dash tester", 'Evidence, with "quotes"', '', 'Late sign-offs', 'quarterly',
    ]);
    expect(rows).toContainEqual(['Business continuity (no sub-controls yet)', '', '', '', '', '', '', '', '', '', '', '', '']);
    expect(rows).toContainEqual(['Access management', "''Quoted on purpose", 'Quarterly access review', '', 'A', '1', 'Highly Effective', '', '', '', '', '', '']);
  });

  it('an exported library imported into another enterprise gives the same library (CSV round trip is lossless)', async () => {
    const exported = await exportCsv(sourceAdmin);
    const imported = await importFile(targetAdmin, exported);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json().data).toEqual({
      dry_run: false,
      rows: 4,
      key_controls: { created: 3, updated: 0, unchanged: 0 },
      sub_controls: { created: 3, updated: 0, unchanged: 0 },
    });
    expect(await exportCsv(targetAdmin)).toBe(exported);
    // Imported again, nothing changes and nothing is audited.
    const before = await countAuditEntries(ctx, target.id);
    const again = await importFile(targetAdmin, exported);
    expect(again.json().data).toMatchObject({ key_controls: { created: 0, updated: 0, unchanged: 3 }, sub_controls: { created: 0, updated: 0, unchanged: 3 } });
    expect(await countAuditEntries(ctx, target.id)).toBe(before);
  });

  it('the XLSX export holds the same cells and imports back to the same library', async () => {
    const response = await api(sourceAdmin, 'GET', '/export?format=xlsx');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(XLSX);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const cells: string[][] = [];
    sheet.eachRow((row) => cells.push(Array.from((row.values as unknown[]).slice(1), (value) => (value === null || value === undefined ? '' : String(value)))));
    const csvCells = parseCsv(await exportCsv(sourceAdmin));
    expect(cells.map((row) => [...row, ...Array(13 - row.length).fill('')])).toEqual(csvCells);
    for (const row of cells) for (const cell of row) expect(typeof cell).toBe('string');

    const third = await createEnterprise(ctx);
    const thirdAdmin = await createUser(ctx, { role: 'admin', enterpriseId: third.id });
    const imported = await importFile(thirdAdmin, response.rawPayload, XLSX);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(await exportCsv(thirdAdmin)).toBe(await exportCsv(sourceAdmin));
  });

  it('a file with one bad row writes nothing and names the row and the column', async () => {
    const fresh = await createEnterprise(ctx);
    const admin = await createUser(ctx, { role: 'admin', enterpriseId: fresh.id });
    const file = [
      'key_control,sub_control,tod,toe,testing_date,testing_frequency',
      'Payments,Dual authorisation,A,1,2026-01-10,annual',
      'Payments,Call-back on new payees,B,7,2026-01-11,',
      'Treasury,Limits monitored,C,2,2026-02-30,weekly',
    ].join('\n');
    const before = await countAuditEntries(ctx, fresh.id);
    const response = await importFile(admin, file);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: {
        fields: [
          { field: 'row 3, toe', message: 'must be one of 1, 2, 3, 4, 5' },
          { field: 'row 4, testing_date', message: 'must be a date YYYY-MM-DD' },
          { field: 'row 4, testing_frequency', message: 'must be one of monthly, quarterly, semi_annual, annual' },
        ],
      },
    });
    expect(await libraryCount(fresh.id)).toEqual({ keys: 0, subs: 0 });
    expect(await countAuditEntries(ctx, fresh.id)).toBe(before);
  });

  it('matches by name: an existing sub-control is updated, audited once and its new result appended to its history', async () => {
    const fresh = await createEnterprise(ctx);
    const admin = await createUser(ctx, { role: 'admin', enterpriseId: fresh.id });
    await importFile(admin, 'key_control,sub_control,tod,toe\nPayments,Dual authorisation,A,1\nPayments,Call-back,B,2\n');
    const before = await countAuditEntries(ctx, fresh.id);
    const response = await importFile(admin, 'key_control,sub_control,toe\nPayments,Dual authorisation,4\nPayments,Call-back,2\nPayments,New check,\n');
    expect(response.json().data).toMatchObject({ key_controls: { unchanged: 1 }, sub_controls: { created: 1, updated: 1, unchanged: 1 } });
    expect(await countAuditEntries(ctx, fresh.id)).toBe(before + 2);
    const subs = (await api(admin, 'GET', '/sub-controls')).json().data as Array<{ id: string; name: string; tod: string; toe: string; total_effectiveness: string }>;
    const dual = subs.find((sub) => sub.name === 'Dual authorisation')!;
    expect(dual).toMatchObject({ tod: 'A', toe: '4', total_effectiveness: 'Moderately Effective' });
    const history = (await api(admin, 'GET', `/sub-controls/${dual.id}/tests`)).json().data;
    expect(history.map((record: { source: string; toe: string }) => [record.source, record.toe])).toEqual([['import', '4'], ['import', '1']]);
  });

  it('a dry run counts what would happen and writes nothing; a sub-control twice in the file is refused', async () => {
    const fresh = await createEnterprise(ctx);
    const admin = await createUser(ctx, { role: 'admin', enterpriseId: fresh.id });
    const dry = await importFile(admin, 'key_control,sub_control\nPayments,Dual authorisation\nPayments,Call-back\n', CSV, '?dry_run=true');
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json().data).toMatchObject({ dry_run: true, key_controls: { created: 1 }, sub_controls: { created: 2 } });
    expect(await libraryCount(fresh.id)).toEqual({ keys: 0, subs: 0 });
    expect(await countAuditEntries(ctx, fresh.id)).toBe(0);
    const twice = await importFile(admin, 'key_control,sub_control\nPayments,Dual\nPayments,Dual\n');
    expect(twice.statusCode).toBe(422);
    expect(twice.json().details.fields).toEqual([{ field: 'row 3, sub_control', message: 'appears twice under this key control (rows 2 and 3)' }]);
  });

  it('only client admins import (D5); every member exports only their own library', async () => {
    for (const user of [reviewer, assessor, superAdmin]) {
      expect((await importFile(user, 'key_control,sub_control\nX,Y\n')).statusCode).toBe(403);
    }
    expect((await api(superAdmin, 'GET', '/export')).statusCode).toBe(403);
    const other = await createEnterprise(ctx);
    const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: other.id });
    const [, ...rows] = parseCsv(await exportCsv(otherAdmin));
    expect(rows).toEqual([]);
  });

  it('refuses other media types (415), a non-UTF-8 CSV (415), broken CSV and an unreadable workbook (422)', async () => {
    expect((await importFile(sourceAdmin, JSON.stringify({ rows: [] }), 'application/json')).statusCode).toBe(415);
    expect((await importFile(sourceAdmin, 'key_control,sub_control\n', 'text/csv; charset=utf-16')).statusCode).toBe(415);
    const broken = await importFile(sourceAdmin, 'key_control,sub_control\n"unclosed,x\n');
    expect(broken.statusCode).toBe(422);
    expect(broken.json().details.fields[0].field).toMatch(/file$/);
    const notXlsx = await importFile(sourceAdmin, Buffer.from('not a zip'), XLSX);
    expect(notXlsx.statusCode).toBe(422);
    expect(notXlsx.json().details.fields).toEqual([{ field: 'row 0, file', message: 'is not a readable .xlsx workbook' }]);
  });

  it('refuses more than 5,000 rows', async () => {
    const rows = Array.from({ length: 5001 }, (_, i) => `K,S${i}`).join('\n');
    const response = await importFile(sourceAdmin, `key_control,sub_control\n${rows}\n`);
    expect(response.statusCode).toBe(422);
    expect(response.json().details.fields[0].message).toContain('more than 5,000 rows');
  });
});
