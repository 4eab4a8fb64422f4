import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import type { TestContext } from '../support/app.js';

/** The name of one catalogue scenario of a bulk register: text a spreadsheet would read as a formula. */
export const FORMULA_SCENARIO = '=HYPERLINK("http://evil.example","click")';

/**
 * A large risk register in a few SQL statements, for the export suites: `entities` legal entities, each with
 * one approved entity-level BRA of `scenariosPerBra` included scenarios, both rated (scores spread over the
 * 5×5 by a hash), from a catalogue of 100 scenarios of which the first is named `FORMULA_SCENARIO`. The
 * register then holds entities × scenariosPerBra rows. The enterprise needs its default appetite (a
 * `createBraEnterprise`).
 */
export async function bulkRegister(ctx: TestContext, enterpriseId: string, values: { entities: number; scenariosPerBra: number }): Promise<number> {
  const { entities, scenariosPerBra } = values;
  if (scenariosPerBra > 100) throw new Error('the bulk catalogue has 100 scenarios');
  const level = (score: ReturnType<typeof sql>) =>
    sql`case when ${score} <= 4 then 'Low' when ${score} <= 9 then 'Medium' when ${score} <= 15 then 'High' else 'Very High' end`;
  await sql`insert into legal_entities (enterprise_id, name)
    select ${enterpriseId}, 'Bulk entity ' || g from generate_series(1, ${entities}::int) g`.execute(ctx.db);
  await sql`insert into risk_scenarios (enterprise_id, name, category)
    select ${enterpriseId}, case when g = 1 then ${FORMULA_SCENARIO} else 'Bulk scenario ' || lpad(g::text, 3, '0') end,
           (array['Internal fraud','External fraud','Business disruption','Execution and delivery'])[1 + g % 4]
    from generate_series(1, 100) g`.execute(ctx.db);
  await sql`insert into bras (enterprise_id, name, legal_entity_id, business_unit_id, status, period, assessor, approved_at)
    select ${enterpriseId}, 'Bulk BRA ' || le.name, le.id, null, 'approved', 'FY2026', 'Bulk assessor',
           timestamptz '2026-06-30' + row_number() over (order by le.id) * interval '1 minute'
      from legal_entities le where le.enterprise_id = ${enterpriseId}`.execute(ctx.db);
  // The first scenarios by name (the formula one sorts first: '=' before 'B') in every BRA.
  await sql`insert into bra_risk_scenarios (enterprise_id, bra_id, risk_scenario_id, included)
    select b.enterprise_id, b.id, rs.id, true
      from bras b
      join lateral (select id from risk_scenarios where enterprise_id = b.enterprise_id order by name limit ${scenariosPerBra}::int) rs on true
     where b.enterprise_id = ${enterpriseId}`.execute(ctx.db);
  for (const [type, salt] of [
    ['inherent', 3],
    ['residual', 7],
  ] as const) {
    await sql`insert into bra_ratings (enterprise_id, bra_id, bra_risk_scenario_id, rating_type, impact_score, likelihood_score, risk_score, risk_level)
      select enterprise_id, bra_id, id, ${type}, i, l, i * l, ${level(sql`i * l`)}
        from (select l.*, 1 + abs(hashtext(l.id::text || ${salt}::text)) % 5 as i, 1 + abs(hashtext(l.id::text || ${salt + 1}::text)) % 5 as l
                from bra_risk_scenarios l where l.enterprise_id = ${enterpriseId}) x`.execute(ctx.db);
  }
  await sql`analyze`.execute(ctx.db);
  return entities * scenariosPerBra;
}

/** Every row of the first sheet of an XLSX (its cell values, from column A), read with exceljs's streaming reader. */
export async function* xlsxRows(file: Buffer): AsyncGenerator<ExcelJS.CellValue[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([file]), { sharedStrings: 'cache', styles: 'ignore', hyperlinks: 'ignore', worksheets: 'emit' });
  for await (const sheet of reader) {
    for await (const row of sheet as AsyncIterable<ExcelJS.Row>) yield (row.values as ExcelJS.CellValue[]).slice(1);
  }
}

/** The uncompressed size of one part of a zip (an XLSX), from its central directory. */
export function zipEntrySize(file: Buffer, name: string): number {
  const CENTRAL = 0x02014b50;
  for (let at = file.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])), offset = file.readUInt32LE(at + 16); offset < at; ) {
    if (file.readUInt32LE(offset) !== CENTRAL) break;
    const nameLength = file.readUInt16LE(offset + 28);
    const entry = file.toString('utf8', offset + 46, offset + 46 + nameLength);
    if (entry.replace(/^\//, '') === name) return file.readUInt32LE(offset + 24);
    offset += 46 + nameLength + file.readUInt16LE(offset + 30) + file.readUInt16LE(offset + 32);
  }
  throw new Error(`no ${name} in the zip`);
}
