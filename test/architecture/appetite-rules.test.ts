import { describe, expect, it } from 'vitest';
import { appetiteRulesOf, HOME, isScanned } from './appetite-rules.js';
import { sourceFiles } from './source-files.js';

/** The rules and what counts as a copy: appetite-rules.ts. */
describe('the applicable appetite and the above-appetite comparison are written in governance once', () => {
  const scan = (text: string, path = 'src/modules/reporting/x.repository.ts') => appetiteRulesOf({ path, text }).map((line) => line.split(' ').slice(1, 4).join(' '));

  it('no file of src/ outside appetite-rules.ts copies the rule or compares a score with an appetite', () => {
    const outside = sourceFiles()
      .filter((file) => isScanned(file.path))
      .flatMap(appetiteRulesOf);
    expect(outside).toEqual([]);
  });

  it('the home exists and holds the rule and the comparison', () => {
    const home = sourceFiles().find((file) => file.path === HOME);
    expect(home).toBeDefined();
    expect(appetiteRulesOf(home!)).toEqual(
      expect.arrayContaining([expect.stringContaining('ranks appetite records'), expect.stringContaining('compares a score with an appetite')]),
    );
  });

  it('fails on a planted breach: a copy of the rule, a read of risk_appetites, a comparison in SQL or in TypeScript', () => {
    const copy = `const ap = sql\`left join lateral (select ra.threshold_value from risk_appetites ra where ra.enterprise_id = b.enterprise_id
      order by (ra.business_unit_id is not null)::int + (ra.legal_entity_id is not null)::int desc limit 1) ap on true\`;`;
    expect(scan(copy)).toEqual(['reads risk_appetites in', 'ranks appetite records']);
    expect(scan(copy, 'src/modules/governance/x.repository.ts')).toEqual(['ranks appetite records']);
    expect(scan(`db.selectFrom('risk_appetites as p').select('threshold_value');`)).toEqual(['reads risk_appetites']);
    expect(scan('const above = sql`coalesce(r.risk_score > ap.threshold_value, false)`;')).toEqual(['compares a score']);
    expect(scan('const above = sql`count(*) filter (where r.risk_score > ${threshold}::integer)`;')).toEqual(['compares a score']);
    expect(scan(`const above = scenario.residual_rating.risk_score > appetite.threshold_value;`)).toEqual(['compares a score']);
    expect(scan(`if (threshold < score) flag();`)).toEqual(['compares a score']);
  });

  it('leaves other thresholds and scores alone, and the fragments embedded', () => {
    expect(scan(`if (failures >= AUTH_WARNING_THRESHOLD) warn();`)).toEqual([]);
    expect(scan(`const band = RISK_BANDS.find((b) => score <= b.max);`)).toEqual([]);
    expect(scan('const q = sql`left join lateral ${applicableAppetite(braPlace(\'b\'))} ap on true where ${aboveAppetiteSql(\'r.risk_score\', \'ap.threshold_value\')}`;')).toEqual([]);
    expect(scan(`constraint: 'risk_appetites_scope_key'`)).toEqual([]);
  });
});
