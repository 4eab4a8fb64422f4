import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../src/modules/audit-trail/audit-export.js';
import { ENTRY_COLUMNS } from '../../src/modules/audit-trail/audit-trail.repository.js';
import { csvRow } from '../../src/platform/export/csv-cell.js';
import { createTestContext } from '../support/app.js';
import { sessionHeaders } from '../support/api.js';
import { createEnterprise, createUser } from '../support/factories.js';

/** Text cells that CSV must quote or a spreadsheet would read as a formula, and unicode. */
const TEXTS = [
  'plain',
  'Ada, "the admin"',
  'two\nlines',
  'carriage\rreturn',
  '=HYPERLINK("http://evil")',
  '+1',
  '-2+3',
  '@SUM(A1)',
  '\tTabbed',
  '\rReturn',
  '',
  "O'Brien \\ backslash",
  'Zoë 日本 🙂 שלום',
  ',leading comma',
  '"',
  '\\.',
];

/**
 * action_details as written by the writer (JSON text from JavaScript) and as SQL could build them: nulls kept,
 * keys that JavaScript puts first (integer-like), numbers it writes in exponent form or without trailing
 * zeros, escapes, and top-level scalars (a string's own text, a number, null: an empty cell).
 */
const DETAILS = [
  `{}`,
  `{"operation": "bra.update", "changes": {"description": {"from": null, "to": "Draft, \\"v2\\"\\nnext"}}}`,
  `{"a": 1, "10": 2, "2": [1, null, true, false, "x"], "#": 3, "01": 4, "4294967295": 5}`,
  `{"big": 1e21, "small": 1e-7, "half": 0.5, "exact": 1.50, "neg": -0.000001, "long": 0.30000000000000004, "huge": 123456789012345678901234}`,
  `{"control": "\\u0001\\t\\b\\f\\r", "slash": "a/b\\\\c", "unicode": "é 🙂 \\u00e9"}`,
  `[1, 2, {"k": []}]`,
  `"=cmd|calc"`,
  `"plain text, with comma"`,
  `-5`,
  `42`,
  `true`,
  `null`,
  `{"": "empty key", " ": "space key", "k": {"": null}}`,
];

/**
 * D7.6, issue 51: the CSV export streams from COPY. Its bytes are the ones the export made row by row in
 * JavaScript before (pg's values through csv-cell.ts's csvRow, kept here as the oracle): the same header,
 * column order, quoting, formula guard, dates and JSON.
 */
describe('audit export by COPY', async () => {
  const ctx = await createTestContext();
  const headers = sessionHeaders(ctx);
  const enterprise = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const other = await createEnterprise(ctx);

  // One entry per text in each text column and per details value, a second apart, with the odd null.
  const count = Math.max(TEXTS.length, DETAILS.length) * 2;
  await sql`
    insert into audit_log (id, enterprise_id, chain_seq, user_id, user_email, user_name, action_type, entity_type, entity_id,
      action_details, ip_address, user_agent, status, created_at, prev_hash, hash)
    select gen_random_uuid(), e.id, g, case when g % 5 = 0 then null else ${admin.id}::uuid end,
      case when g % 7 = 0 then null else (${TEXTS}::text[])[1 + g % ${TEXTS.length}::int] end,
      (${TEXTS}::text[])[1 + (g + 3) % ${TEXTS.length}::int],
      (array['create', 'update', 'delete', 'approve', 'login'])[1 + g % 5],
      case when g % 6 = 0 then null else (${TEXTS}::text[])[1 + (g + 5) % ${TEXTS.length}::int] end,
      case when g % 4 = 0 then null else gen_random_uuid() end,
      (${DETAILS}::text[])[1 + g % ${DETAILS.length}::int]::jsonb,
      case when g % 3 = 0 then null else (${TEXTS}::text[])[1 + (g + 7) % ${TEXTS.length}::int] end,
      (${TEXTS}::text[])[1 + (g + 11) % ${TEXTS.length}::int],
      case when g % 9 = 0 then 'failed' else 'success' end,
      timestamptz '2026-03-01T00:00:00.001Z' + g * interval '1001 milliseconds' + (g % 3) * interval '1 microsecond',
      repeat('0', 64), repeat('0', 64)
    from (values (${enterprise.id}::uuid, 1), (${other.id}::uuid, 2)) as e(id, n), generate_series(1, ${count}::int) g`.execute(ctx.db);
  await sql`
    insert into audit_chain_heads (chain_key, last_seq, last_hash, last_created_at)
    values (${enterprise.id}, ${count}::int, repeat('0', 64), now()), (${other.id}, ${count}::int, repeat('0', 64), now())`.execute(ctx.db);

  /** The export as it was made before: the entries read through pg, each row rendered by csvRow. */
  async function previousExport(filter: { user_id?: string; from?: number } = {}) {
    let query = ctx.db.selectFrom('audit_log').select(ENTRY_COLUMNS).where('enterprise_id', '=', enterprise.id);
    if (filter.user_id !== undefined) query = query.where('user_id', '=', filter.user_id);
    if (filter.from !== undefined) query = query.where('chain_seq', '>=', filter.from);
    const rows = (await query.orderBy('chain_seq', 'desc').execute()) as Array<Record<string, unknown>>;
    return csvRow(CSV_COLUMNS) + rows.map((row) => csvRow(CSV_COLUMNS.map((column) => row[column]))).join('');
  }

  const exportOf = async (query: string) =>
    ctx.app.inject({ method: 'GET', url: `/api/v1/audit/export?format=csv${query}`, headers: await headers(admin) });

  it('gives the same bytes as the row-by-row export: quotes, commas, line breaks, formulas, unicode, nulls, JSON', async () => {
    const response = await exportOf('');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="audit-export-\d{8}\.csv"$/);
    const expected = await previousExport();
    expect(expected.split('\r\n').length).toBeGreaterThan(count);
    expect(response.rawPayload.equals(Buffer.from(expected, 'utf8'))).toBe(true);
    expect(response.body).toBe(expected);
  });

  it('renders the tricky cells as a fixture says', async () => {
    const body = (await exportOf('')).body;
    // JavaScript's JSON: no spaces, integer-like keys first, numbers as JavaScript writes them, nulls kept.
    expect(body).toContain(`"{""2"":[1,null,true,false,""x""],""10"":2,""#"":3,""a"":1,""01"":4,""4294967295"":5}"\r\n`);
    expect(body).toContain(
      `"{""big"":1e+21,""neg"":-0.000001,""half"":0.5,""huge"":1.2345678901234569e+23,""long"":0.30000000000000004,""exact"":1.5,""small"":1e-7}"\r\n`,
    );
    expect(body).toContain(`,"{""changes"":{""description"":{""to"":""Draft, \\""v2\\""\\nnext"",""from"":null}},""operation"":""bra.update""}"\r\n`);
    // Top-level scalars: a string's own text (behind ' when it starts a formula), a number, null as nothing.
    expect(body).toContain(`,'=cmd|calc\r\n`);
    expect(body).toContain(`,"plain text, with comma"\r\n`);
    expect(body).toContain(`,'-5\r\n`);
    expect(body).toContain(`,'-2+3,\r\n`);
    // Text cells: quoted when they hold a quote, comma or line break; ' before a formula; empty for '' and null.
    expect(body).toContain(`,"Ada, ""the admin""",`);
    expect(body).toContain(`,"two\nlines",`);
    expect(body).toContain(`,"'=HYPERLINK(""http://evil"")",`);
    expect(body).toContain(`,"'\rReturn",`);
    expect(body).toContain(`,'\tTabbed,`);
    expect(body).toContain(',Zoë 日本 🙂 שלום,');
    expect(body).toContain(',"""",');
    expect(body).not.toContain(',"",');
  });

  it('keeps the filters and the tenant: only the enterprise’s entries, as filtered', async () => {
    const byUser = await exportOf(`&user_id=${admin.id}`);
    expect(byUser.body).toBe(await previousExport({ user_id: admin.id }));
    const others = await exportOf(`&user_id=${admin.id}&action_type=login`);
    expect(others.statusCode).toBe(200);
    expect(others.body.split('\r\n').slice(1, -1).every((line) => line.includes(',login,'))).toBe(true);
    expect(byUser.body).not.toContain(other.id);
  });
});
