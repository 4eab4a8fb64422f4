import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { aboveAppetiteSql, applicableAppetite, braPlace, exceedsAppetite, placeOf } from '../../src/modules/governance/appetite-rules.js';
import { createGovernedEnterprise } from '../support/governance-factories.js';
import { createTestContext } from '../support/app.js';
import { createAppetite, createBra } from '../support/bras-factories.js';
import { createBusinessUnit, createLegalEntity } from '../support/factories.js';

/**
 * The appetite rules of governance (appetite-rules.ts) run on the database: the fragment every reader embeds
 * picks the record D6.9 names, from a BRA row's columns as from ids, and the SQL comparison agrees with the
 * TypeScript one at and around the threshold.
 */
describe('the applicable appetite and the above-appetite comparison, in SQL', async () => {
  const ctx = await createTestContext();

  it('D6.9: the unit’s record, else the entity’s, else the enterprise default; for a BRA row as for ids', async () => {
    const { enterprise } = await createGovernedEnterprise(ctx);
    const entity = await createLegalEntity(ctx, enterprise.id);
    const [unit, bareUnit] = [await createBusinessUnit(ctx, enterprise.id, entity.id), await createBusinessUnit(ctx, enterprise.id, entity.id)];
    const bareEntity = await createLegalEntity(ctx, enterprise.id);
    const defaultThreshold = (await ctx.db.selectFrom('risk_appetites').select('threshold_value').where('enterprise_id', '=', enterprise.id).executeTakeFirstOrThrow()).threshold_value;
    await createAppetite(ctx, enterprise.id, { threshold: 6, legalEntityId: entity.id });
    await createAppetite(ctx, enterprise.id, { threshold: 3, legalEntityId: entity.id, businessUnitId: unit.id });
    const cases: [string, string | null, number][] = [
      [entity.id, unit.id, 3],
      [entity.id, bareUnit.id, 6],
      [entity.id, null, 6],
      [bareEntity.id, null, defaultThreshold],
    ];
    for (const [legalEntityId, businessUnitId, threshold] of cases) {
      const ofIds = await sql<{ threshold_value: number }>`select * from ${applicableAppetite(placeOf(enterprise.id, legalEntityId, businessUnitId), sql`ra.threshold_value`)} ap`.execute(ctx.db);
      expect(ofIds.rows, `${legalEntityId} ${businessUnitId}`).toEqual([{ threshold_value: threshold }]);
      const bra = await createBra(ctx, { enterpriseId: enterprise.id, legalEntityId, businessUnitId });
      const ofBra = await sql<{ threshold_value: number }>`
        select ap.threshold_value from bras b cross join lateral ${applicableAppetite(braPlace('b'))} ap where b.id = ${bra.id}`.execute(ctx.db);
      expect(ofBra.rows).toEqual([{ threshold_value: threshold }]);
    }
  });

  it('the fragment reads a BRA row’s own columns, or the ids given as parameters, and ranks the candidates most specific first', () => {
    const ofBra = applicableAppetite(braPlace('b'), sql`ra.threshold_value`).compile(ctx.db);
    expect(ofBra.parameters).toEqual([]);
    expect(ofBra.sql).toContain('ra.enterprise_id = b.enterprise_id');
    expect(ofBra.sql).toContain('ra.legal_entity_id = b.legal_entity_id and (ra.business_unit_id is null or ra.business_unit_id = b.business_unit_id)');
    expect(ofBra.sql).toMatch(/order by \(ra\.business_unit_id is not null\)::int \+ \(ra\.legal_entity_id is not null\)::int desc\s+limit 1\)$/);
    expect(applicableAppetite(placeOf('e', 'l', null)).compile(ctx.db).parameters).toEqual(['e', 'l', null]);
    expect(aboveAppetiteSql('r.risk_score', 'ap.threshold_value').compile(ctx.db).sql).toBe('r.risk_score > ap.threshold_value');
  });

  it('another enterprise’s records never apply', async () => {
    const mine = await createGovernedEnterprise(ctx);
    const theirs = await createGovernedEnterprise(ctx);
    const entity = await createLegalEntity(ctx, mine.enterprise.id);
    await createAppetite(ctx, theirs.enterprise.id, { threshold: 1, legalEntityId: theirs.entity.id });
    const { rows } = await sql<{ id: string }>`select * from ${applicableAppetite(placeOf(mine.enterprise.id, entity.id, null), sql`ra.id, ra.enterprise_id`)} ap`.execute(ctx.db);
    expect(rows).toEqual([expect.objectContaining({ enterprise_id: mine.enterprise.id })]);
  });

  it('above is strictly above, in SQL as in TypeScript; a missing threshold is no answer (null)', async () => {
    for (const [score, threshold] of [[9, 9], [10, 9], [1, 25], [25, 24]] as const) {
      const { rows } = await sql<{ above: boolean }>`select ${aboveAppetiteSql(sql`${score}::integer`, sql`${threshold}::integer`)} as above`.execute(ctx.db);
      expect(rows[0]!.above, `${score} against ${threshold}`).toBe(exceedsAppetite(score, threshold));
    }
    const { rows } = await sql<{ above: boolean | null }>`select ${aboveAppetiteSql(sql`${9}::integer`, sql`null::integer`)} as above`.execute(ctx.db);
    expect(rows[0]!.above).toBeNull();
  });
});
