import { text } from 'node:stream/consumers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { poolOf } from '../../src/platform/db/engine.js';
import { streamCopyCsv } from '../../src/platform/export/copy-csv.js';
import { csvCell } from '../../src/platform/export/csv-cell.js';
import { createTestContext } from '../support/app.js';

/**
 * Issue 51: COPY's CSV renders action_details (jsonb) by removing jsonb's spaces on the bytes, and parses the
 * cell only where JavaScript writes it otherwise (scalars, array-index keys, numbers in exponent form or with
 * jsonb's trailing zeros, long numbers). Whatever JSON the trail holds, each cell must be csvCell's text of the
 * parsed value: random JSON from fast-check, stored as jsonb by the database, exported by COPY, compared cell by
 * cell with the renderer JavaScript used before.
 */
describe('audit export by COPY: action_details as JavaScript writes them', async () => {
  const ctx = await createTestContext();
  const pool = poolOf(ctx.db)!;

  /** The values' cells as the export writes them: one-column COPY of the values stored as jsonb. */
  async function exported(values: string[]): Promise<string[]> {
    const rows = values.map((value, index) => `select ${index} as n, ${pgLiteral(value)}::jsonb as details`).join(' union all ');
    const copySql = `copy (select n, details from (${rows}) v order by n) to stdout with (format csv, header)`;
    const body = await text(streamCopyCsv(pool, copySql, { jsonLastColumn: true, onError: () => undefined }));
    return body.split('\r\n').slice(1, -1).map((line) => line.slice(line.indexOf(',') + 1));
  }

  const pgLiteral = (value: string) => `'${value.replaceAll("'", "''")}'`;
  const oracle = async (values: string[]) => {
    // What JavaScript writes of the value PostgreSQL keeps (jsonb normalises: keys ordered, duplicates dropped).
    const stored = await pool.query<{ details: unknown }>(`select details from unnest($1::jsonb[]) with ordinality as t(details, n) order by n`, [values]);
    return stored.rows.map((row) => csvCell(row.details));
  };

  it('gives csvCell’s text for every JSON value fast-check makes', async () => {
    // No \u0000: jsonb refuses it.
    const json = fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)).filter((value) => !value.includes('\\u0000'));
    await fc.assert(
      fc.asyncProperty(fc.array(json, { minLength: 1, maxLength: 20 }), async (values) => {
        expect(await exported(values)).toEqual(await oracle(values));
      }),
      { numRuns: 150 },
    );
  });

  it('gives the same bytes where JavaScript writes otherwise: array-index keys, exponent forms, trailing zeros, long numbers, scalars', async () => {
    const values = [
      '{"a": 1, "b": [1, 2, {"c": "x, y: z"}], "d": null, "e": true}',
      '{"s": "quote \\" inside, \\\\ backslash\\\\", "t": "\\\\"}',
      '{"0": "array index", "1": 1, "10": 2, "01": "not one", "4294967294": 3, "4294967295": 4, "-1": 5}',
      '{"uuid": {"1f0c2b8e-0000-4000-8000-000000000000": 1}}',
      '{"big": 1e21, "just": 999999999999999900000, "small": 1e-7, "edge": 0.000001, "trail": 1.50, "two": 2.0, "long": 0.30000000000000004, "sixteen": 1234567890123456}',
      '{"neg": -0.5, "negsmall": -1e-7, "zero": 0, "negzero": -0}',
      '[]',
      '{}',
      '[1]',
      '[5e-324]',
      '[1.50]',
      '[{}, []]',
      '{"unicode": "é 🙂 \\u00e9 \\u2028", "control": "\\u0001\\t\\b\\f\\r\\n"}',
      '"=formula"',
      '-5',
      'null',
    ];
    expect(await exported(values)).toEqual(await oracle(values));
  });
});
