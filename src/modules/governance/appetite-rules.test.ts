import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { aboveAppetiteSql, applicableAppetite, braPlace, exceedsAppetite, placeOf } from './appetite-rules.js';

/** A Kysely that only compiles, to read the SQL the fragments make (test/governance/appetite-rules.test.ts runs them). */
const compiler = new Kysely<Record<string, never>>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const compiled = (fragment: { compile(db: Kysely<any>): { sql: string; parameters: readonly unknown[] } }) => fragment.compile(compiler);

describe('the appetite rules (D6.9, 2.5)', () => {
  it('a risk exceeds the appetite only when its score is strictly above the threshold', () => {
    expect(exceedsAppetite(9, 9)).toBe(false);
    expect(exceedsAppetite(10, 9)).toBe(true);
    expect(exceedsAppetite(1, 25)).toBe(false);
  });

  it('the SQL comparison is the same strict one, over the columns or expressions it is given', () => {
    expect(compiled(aboveAppetiteSql('r.risk_score', 'ap.threshold_value')).sql).toBe('r.risk_score > ap.threshold_value');
    const withValue = compiled(aboveAppetiteSql('r.risk_score', sql`${9}::integer`));
    expect(withValue).toMatchObject({ sql: 'r.risk_score > $1::integer', parameters: [9] });
  });

  it('the applicable appetite of a BRA row reads its own columns; of given ids, parameters', () => {
    const ofBra = compiled(applicableAppetite(braPlace('b'), sql`ra.threshold_value`));
    expect(ofBra.parameters).toEqual([]);
    expect(ofBra.sql).toContain('ra.enterprise_id = b.enterprise_id');
    expect(ofBra.sql).toContain('ra.legal_entity_id = b.legal_entity_id and (ra.business_unit_id is null or ra.business_unit_id = b.business_unit_id)');
    expect(ofBra.sql).toMatch(/order by \(ra\.business_unit_id is not null\)::int \+ \(ra\.legal_entity_id is not null\)::int desc\s+limit 1\)$/);
    const ofIds = compiled(applicableAppetite(placeOf('e', 'l', null)));
    expect(ofIds.parameters).toEqual(['e', 'l', null]);
  });

  it('refuses a column name that is not one (the names are written into the SQL)', () => {
    expect(() => braPlace('b; drop table bras')).toThrow('Not a column');
    expect(() => aboveAppetiteSql('r.risk_score or true', 'ap.threshold_value')).toThrow('Not a column');
  });
});
