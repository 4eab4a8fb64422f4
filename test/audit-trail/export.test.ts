import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { sessionHeaders } from '../support/api.js';
import { expectAccessDenied } from '../support/audit.js';
import { createEnterprise, createUser } from '../support/factories.js';
import { appendAuditEntries } from '../support/governance-factories.js';
import { parseCsv } from './csv-parse.js';

const CSV_HEADER = 'id,created_at,user_id,user_email,user_name,action_type,entity_type,entity_id,status,ip_address,user_agent,action_details';

/** GET /api/v1/audit/export (D7.6). */
describe('audit export', async () => {
  const ctx = await createTestContext();
  const headers = sessionHeaders(ctx);
  const enterprise = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id, fullName: 'Ada, "the admin"' });
  const reviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: enterprise.id, fullName: '=HYPERLINK("http://evil")' });
  const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
  const superAdmin = await createUser(ctx, { role: 'super_admin' });
  const other = await createEnterprise(ctx);
  await appendAuditEntries(ctx, other.id, [{ createdAt: new Date('2026-02-01T00:00:00Z') }]);
  const ids = await appendAuditEntries(ctx, enterprise.id, [
    { createdAt: new Date('2026-02-01T09:00:00Z'), action: 'create', entityType: 'bra', user: admin, details: { name: 'Line one\nline two' } },
    { createdAt: new Date('2026-02-02T09:00:00Z'), action: 'update', entityType: 'bra', user: reviewer, userAgent: '+cmd|calc' },
    { createdAt: new Date('2026-02-03T09:00:00Z'), action: 'login', entityType: null, entityId: null, user: admin, userAgent: '-2+3' },
    { createdAt: new Date('2026-02-04T09:00:00Z'), action: 'update', entityType: 'bra', user: admin, userAgent: '@SUM(A1)' },
    { createdAt: new Date('2026-02-05T09:00:00Z'), action: 'update', entityType: 'user', user: admin, userAgent: '\tTabbed' },
    { createdAt: new Date('2026-02-06T09:00:00Z'), action: 'update', entityType: 'user', user: admin, userAgent: '\rReturn' },
  ]);

  const exportOf = async (query: string, user = admin) =>
    ctx.app.inject({ method: 'GET', url: `/api/v1/audit/export${query}`, headers: await headers(user) });
  const today = new Date().toISOString().slice(0, 10).replace(/-/g, '');

  it('JSON is the default: a download named audit-export-<YYYYMMDD>.json that parses into the entries GET /audit lists', async () => {
    const response = await exportOf('');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="audit-export-${today}.json"`);
    const exported = JSON.parse(response.body);
    const listed = await ctx.app.inject({ method: 'GET', url: '/api/v1/audit?page_size=100', headers: await headers(admin) });
    expect(exported).toEqual(listed.json().data);
    expect(exported.map((entry: { id: string }) => entry.id)).toEqual([...ids].reverse());
  });

  it('CSV: text/csv, the exact header and column order, one record per entry, newest first (D7.6)', async () => {
    const response = await exportOf('?format=csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="audit-export-${today}.csv"`);
    expect(response.body.split('\r\n')[0]).toBe(CSV_HEADER);
    const [header, ...records] = parseCsv(response.body);
    expect(header!.join(',')).toBe(CSV_HEADER);
    expect(records.map((record) => record[0])).toEqual([...ids].reverse());
    const json = JSON.parse((await exportOf('?format=json')).body) as Record<string, unknown>[];
    records.forEach((record, i) => {
      const entry = json[i]!;
      expect(record).toEqual([
        entry['id'], entry['created_at'], entry['user_id'], entry['user_email'],
        record[4], entry['action_type'], entry['entity_type'] ?? '', entry['entity_id'] ?? '', entry['status'],
        entry['ip_address'], record[10], JSON.stringify(entry['action_details']),
      ]);
    });
  });

  it("quotes commas, quotes and line breaks, and prefixes =, +, -, @, tab and CR with ' (formula injection, D7.6)", async () => {
    const records = parseCsv((await exportOf('?format=csv')).body).slice(1).reverse();
    expect(records[0]![4]).toBe('Ada, "the admin"');
    expect(JSON.parse(records[0]![11]!)).toEqual({ name: 'Line one\nline two' });
    expect(records[1]![4]).toBe(`'=HYPERLINK("http://evil")`);
    expect(records[1]![10]).toBe(`'+cmd|calc`);
    expect(records[2]![10]).toBe(`'-2+3`);
    expect(records[3]![10]).toBe(`'@SUM(A1)`);
    expect(records[4]![10]).toBe(`'\tTabbed`);
    expect(records[5]![10]).toBe(`'\rReturn`);
    const raw = (await exportOf('?format=csv')).body;
    expect(raw).toContain('"Ada, ""the admin"""');
  });

  it('takes the filters of GET /audit (4.6)', async () => {
    const response = await exportOf('?action_type=update&entity_type=bra&start_date=2026-02-02&end_date=2026-02-04');
    expect(JSON.parse(response.body).map((entry: { id: string }) => entry.id)).toEqual([ids[3], ids[1]]);
    const none = await exportOf('?format=csv&start_date=2030-01-01');
    expect(none.body).toBe(`${CSV_HEADER}\r\n`);
    expect(JSON.parse((await exportOf('?start_date=2030-01-01')).body)).toEqual([]);
  });

  it('a reviewer exports the whole enterprise; bad input answers 400 before any byte is streamed', async () => {
    expect(JSON.parse((await exportOf('', reviewer)).body)).toHaveLength(ids.length + 0);
    const bad = await exportOf('?format=xlsx');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('refuses an assessor and a super admin with 403 (D5)', async () => {
    await expectAccessDenied(ctx, assessor, await exportOf('', assessor), 'audit.export');
    await expectAccessDenied(ctx, superAdmin, await exportOf('', superAdmin), 'audit.export');
  });
});
