import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { RatingType } from '../../src/platform/db/tables/bras.js';
import { acceptanceInForceJoin, addDays } from '../../src/modules/bras/acceptance/acceptance-rules.js';
import { approvedBraSql, liveBraSql } from '../../src/modules/bras/bras.lifecycle.js';
import { currentRatingJoin } from '../../src/modules/bras/current-rating.js';
import { rateRisk } from '../../src/modules/bras/risk-rating.js';
import { aboveAppetiteSql, applicableAppetite, braPlace } from '../../src/modules/governance/appetite-rules.js';
import { createTestContext } from '../support/app.js';
import { createAppetite, createBra, createRiskScenario } from '../support/bras-factories.js';
import { bearer, createBusinessUnit, createEnterprise, createLegalEntity, createUser, tokenFor } from '../support/factories.js';

/**
 * The register and the dashboard read register_entries, one row per included scenario link of every BRA that
 * the database keeps (migration 20261206100000). Here the live computation stays as the check: after random
 * sequences of writes (BRAs created and approved, scenarios linked, included, excluded and removed, ratings
 * written, superseded and cleared, catalogue scenarios renamed and recategorised, risks accepted), every
 * entry equals the one computed from the links, scenarios and ratings themselves, and GET /risk-register
 * (both sorts, filters, pages, totals) and the dashboard's register figures equal what the live joins give.
 */
describe('the register entries, kept by the database', async () => {
  const ctx = await createTestContext();
  const CATEGORIES = ['External fraud', 'Internal fraud', 'Business disruption'];
  const SCENARIOS = 4;

  type Op =
    | { kind: 'bra'; place: number; approved: boolean }
    | { kind: 'link'; bra: number; scenario: number; included: boolean }
    | { kind: 'rate'; link: number; type: RatingType; impact: number; likelihood: number }
    | { kind: 'clear'; link: number; type: RatingType }
    | { kind: 'include'; link: number; included: boolean }
    | { kind: 'remove'; link: number }
    | { kind: 'rename'; scenario: number }
    | { kind: 'recategorise'; scenario: number; category: number }
    | { kind: 'approve'; bra: number }
    | { kind: 'accept'; link: number; days: number };

  const type = fc.constantFrom<RatingType>('inherent', 'residual');
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('bra' as const), place: fc.integer({ min: 0, max: 2 }), approved: fc.boolean() }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('link' as const), bra: fc.nat(), scenario: fc.nat(), included: fc.boolean() }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('rate' as const), link: fc.nat(), type, impact: fc.integer({ min: 1, max: 5 }), likelihood: fc.integer({ min: 1, max: 5 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const), link: fc.nat(), type }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('include' as const), link: fc.nat(), included: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), link: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('rename' as const), scenario: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('recategorise' as const), scenario: fc.nat(), category: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('approve' as const), bra: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('accept' as const), link: fc.nat(), days: fc.integer({ min: -2, max: 40 }) }) },
  );
  /** Each run starts from an approved BRA and a live one, each with two scenarios. */
  const start: Op[] = [
    { kind: 'bra', place: 0, approved: true },
    { kind: 'bra', place: 1, approved: false },
    { kind: 'link', bra: 0, scenario: 0, included: true },
    { kind: 'link', bra: 0, scenario: 1, included: true },
    { kind: 'link', bra: 1, scenario: 0, included: true },
    { kind: 'link', bra: 1, scenario: 2, included: true },
  ];

  const ENTRY = `scenario_link_id, bra_id, risk_scenario_id, scenario_name, category,
    inherent_impact, inherent_likelihood, inherent_score, inherent_level, residual_impact, residual_likelihood, residual_score, residual_level`;

  /** Every included link `l` of the enterprise with its scenario `rs` and current ratings `i` and `r` (the live joins, written once). */
  const linksWithRatings = (enterpriseId: string) => sql`
      from bra_risk_scenarios l
      join risk_scenarios rs on rs.enterprise_id = l.enterprise_id and rs.id = l.risk_scenario_id
      left join bra_ratings i on ${currentRatingJoin('i', 'inherent')}
      left join bra_ratings r on ${currentRatingJoin('r', 'residual')}
     where l.enterprise_id = ${enterpriseId} and l.included`;
  const LIVE_ENTRY = sql`l.id as scenario_link_id, l.bra_id, rs.id as risk_scenario_id, rs.name as scenario_name, rs.category,
      i.impact_score as inherent_impact, i.likelihood_score as inherent_likelihood, i.risk_score as inherent_score, i.risk_level as inherent_level,
      r.impact_score as residual_impact, r.likelihood_score as residual_likelihood, r.risk_score as residual_score, r.risk_level as residual_level`;

  const liveEntries = async (enterpriseId: string) =>
    (await sql`select ${LIVE_ENTRY} ${linksWithRatings(enterpriseId)} order by l.id`.execute(ctx.db)).rows;
  const keptEntries = async (enterpriseId: string) =>
    (await sql`select ${sql.raw(ENTRY)} from register_entries where enterprise_id = ${enterpriseId} order by scenario_link_id`.execute(ctx.db)).rows;

  interface LiveRow {
    scenario_link_id: string;
    bra_id: string;
    live: boolean;
    scenario_name: string;
    category: string;
    legal_entity_name: string;
    business_unit_id: string | null;
    inherent_impact: number | null;
    inherent_likelihood: number | null;
    inherent_score: number | null;
    residual_impact: number | null;
    residual_likelihood: number | null;
    residual_score: number | null;
    residual_level: string | null;
    appetite_threshold: number | null;
    above_appetite: boolean;
    acceptance_id: string | null;
    accepted_until: string | null;
  }

  /** The register computed live (the statement it ran before the entries), filtered and sorted in SQL. */
  const liveRegister = async (enterpriseId: string, today: string, params: URLSearchParams) => {
    const includeLive = params.get('include_live') === 'true';
    const entity = params.get('legal_entity_id');
    const place = entity === null ? sql<SqlBool>`true` : sql<SqlBool>`b.legal_entity_id = ${entity}`;
    const filters: RawBuilder<SqlBool>[] = [sql<SqlBool>`true`];
    const text = (name: string) => params.get(name);
    if (text('category') !== null) filters.push(sql<SqlBool>`category = ${text('category')}`);
    if (text('risk_level') !== null) filters.push(sql<SqlBool>`residual_level = ${text('risk_level')}`);
    if (text('above_appetite') !== null) filters.push(sql<SqlBool>`above_appetite = ${text('above_appetite') === 'true'}`);
    if (text('accepted') !== null) filters.push(sql<SqlBool>`above_appetite and (acceptance_id is not null) = ${text('accepted') === 'true'}`);
    for (const column of ['inherent_impact', 'inherent_likelihood', 'residual_impact', 'residual_likelihood']) {
      if (text(column) !== null) filters.push(sql<SqlBool>`${sql.ref(column)} = ${Number(text(column))}`);
    }
    const order = params.get('sort') === 'name' ? sql`scenario_name, legal_entity_name, scenario_link_id` : sql`residual_score desc nulls last, scenario_name, scenario_link_id`;
    const { rows } = await sql<LiveRow>`
      with chosen as (
        (select distinct on (b.legal_entity_id, b.business_unit_id) b.id, false as live from bras b
          where b.enterprise_id = ${enterpriseId} and ${approvedBraSql('b')} and ${place}
          order by b.legal_entity_id, b.business_unit_id, b.approved_at desc, b.id desc)
        ${includeLive ? sql`union all select b.id, true from bras b where b.enterprise_id = ${enterpriseId} and ${liveBraSql('b')} and ${place}` : sql``}
      ),
      register as (
        select ${LIVE_ENTRY}, c.live, le.name as legal_entity_name, b.business_unit_id,
               ap.threshold_value as appetite_threshold, coalesce(${aboveAppetiteSql('r.risk_score', 'ap.threshold_value')}, false) as above_appetite,
               acc.id as acceptance_id, acc.expires_on::text as accepted_until
          from chosen c
          join bras b on b.enterprise_id = ${enterpriseId} and b.id = c.id
          join legal_entities le on le.enterprise_id = b.enterprise_id and le.id = b.legal_entity_id
          join bra_risk_scenarios l on l.enterprise_id = b.enterprise_id and l.bra_id = b.id and l.included
          join risk_scenarios rs on rs.enterprise_id = l.enterprise_id and rs.id = l.risk_scenario_id
          left join bra_ratings i on ${currentRatingJoin('i', 'inherent')}
          left join bra_ratings r on ${currentRatingJoin('r', 'residual')}
          left join lateral ${applicableAppetite(braPlace('b'), sql`ra.threshold_value`)} ap on true
          ${acceptanceInForceJoin('l', today, 'acc')}
      )
      select * from register where ${sql.join(filters, sql` and `)} order by ${order}`.execute(ctx.db);
    return rows;
  };

  /** What GET /risk-register says of a row, and the same of a live row. */
  interface ViewRow {
    scenario: { id: string; name: string; category: string };
    bra: { id: string; live: boolean };
    legal_entity: { name: string };
    business_unit: { id: string } | null;
    inherent_rating: { impact_score: number; likelihood_score: number; risk_score: number } | null;
    residual_rating: { impact_score: number; likelihood_score: number; risk_score: number; risk_level: string } | null;
    appetite_threshold: number | null;
    above_appetite: boolean;
    acceptance_id: string | null;
    accepted_until: string | null;
  }
  const fromView = (row: ViewRow) => ({
    link: row.scenario.id,
    bra: row.bra.id,
    live: row.bra.live,
    name: row.scenario.name,
    category: row.scenario.category,
    entity: row.legal_entity.name,
    unit: row.business_unit?.id ?? null,
    inherent: row.inherent_rating === null ? null : [row.inherent_rating.impact_score, row.inherent_rating.likelihood_score, row.inherent_rating.risk_score],
    residual: row.residual_rating === null ? null : [row.residual_rating.impact_score, row.residual_rating.likelihood_score, row.residual_rating.risk_score, row.residual_rating.risk_level],
    threshold: row.appetite_threshold,
    above: row.above_appetite,
    acceptance: row.acceptance_id,
    until: row.accepted_until,
  });
  const fromLive = (row: LiveRow) => ({
    link: row.scenario_link_id,
    bra: row.bra_id,
    live: row.live,
    name: row.scenario_name,
    category: row.category,
    entity: row.legal_entity_name,
    unit: row.business_unit_id,
    inherent: row.inherent_score === null ? null : [row.inherent_impact, row.inherent_likelihood, row.inherent_score],
    residual: row.residual_score === null ? null : [row.residual_impact, row.residual_likelihood, row.residual_score, row.residual_level],
    threshold: row.appetite_threshold,
    above: row.above_appetite,
    acceptance: row.acceptance_id,
    until: row.accepted_until,
  });

  it('after any sequence of writes, the entries equal the live joins, and the register and the dashboard what the live statement gives', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), async (generated) => {
        const ops = [...start, ...generated];
        const today = new Date().toISOString().slice(0, 10);
        const enterprise = await createEnterprise(ctx);
        const entity = await createLegalEntity(ctx, enterprise.id, `Entity A ${randomUUID().slice(0, 8)}`);
        const unit = await createBusinessUnit(ctx, enterprise.id, entity.id);
        const other = await createLegalEntity(ctx, enterprise.id, `Entity B ${randomUUID().slice(0, 8)}`);
        await createAppetite(ctx, enterprise.id, { threshold: 6, legalEntityId: other.id });
        const places = [
          { legalEntityId: entity.id, businessUnitId: null },
          { legalEntityId: entity.id, businessUnitId: unit.id },
          { legalEntityId: other.id, businessUnitId: null },
        ];
        const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
        const scenarios = [];
        for (let n = 0; n < SCENARIOS; n++) scenarios.push(await createRiskScenario(ctx, enterprise.id, CATEGORIES[n % CATEGORIES.length]));
        const bras: { id: string; enterprise_id: string }[] = [];
        const links: { id: string; bra_id: string; enterprise_id: string; key: string }[] = [];
        let approvals = 0;
        const approvedAt = () => new Date(Date.UTC(2026, 0, 1) + ++approvals * 60_000);

        for (const step of ops) {
          const link = links.length > 0 && 'link' in step ? links[step.link % links.length]! : undefined;
          if (step.kind === 'bra') {
            const bra = await createBra(ctx, { enterpriseId: enterprise.id, ...places[step.place]!, status: step.approved ? 'approved' : 'in_progress' });
            if (step.approved) await ctx.db.updateTable('bras').set({ approved_at: approvedAt() }).where('id', '=', bra.id).execute();
            bras.push(bra);
          } else if (step.kind === 'link' && bras.length > 0) {
            const bra = bras[step.bra % bras.length]!;
            const scenario = scenarios[step.scenario % SCENARIOS]!;
            if (links.some((l) => l.key === `${bra.id}/${scenario.id}`)) continue;
            const row = await ctx.db
              .insertInto('bra_risk_scenarios')
              .values({ enterprise_id: enterprise.id, bra_id: bra.id, risk_scenario_id: scenario.id, included: step.included })
              .returning(['id', 'bra_id', 'enterprise_id'])
              .executeTakeFirstOrThrow();
            links.push({ ...row, key: `${bra.id}/${scenario.id}` });
          } else if (step.kind === 'rate' && link !== undefined) {
            // A new current rating supersedes the previous one, in one transaction, as a rating write does.
            await ctx.db.transaction().execute(async (trx) => {
              await trx.updateTable('bra_ratings').set({ superseded_at: new Date() })
                .where('enterprise_id', '=', enterprise.id).where('bra_risk_scenario_id', '=', link.id).where('rating_type', '=', step.type).where('superseded_at', 'is', null)
                .execute();
              await trx.insertInto('bra_ratings')
                .values({ enterprise_id: enterprise.id, bra_id: link.bra_id, bra_risk_scenario_id: link.id, rating_type: step.type, ...rateRisk(step.impact, step.likelihood) })
                .execute();
            });
          } else if (step.kind === 'clear' && link !== undefined) {
            await ctx.db.updateTable('bra_ratings').set({ superseded_at: new Date() })
              .where('bra_risk_scenario_id', '=', link.id).where('rating_type', '=', step.type).where('superseded_at', 'is', null).execute();
          } else if (step.kind === 'include' && link !== undefined) {
            await ctx.db.updateTable('bra_risk_scenarios').set({ included: step.included }).where('id', '=', link.id).execute();
          } else if (step.kind === 'remove' && link !== undefined) {
            await ctx.db.transaction().execute(async (trx) => {
              await trx.deleteFrom('risk_acceptances').where('bra_risk_scenario_id', '=', link.id).execute();
              await trx.deleteFrom('bra_ratings').where('bra_risk_scenario_id', '=', link.id).execute();
              await trx.deleteFrom('bra_risk_scenarios').where('id', '=', link.id).execute();
            });
            links.splice(links.indexOf(link), 1);
          } else if (step.kind === 'rename') {
            await ctx.db.updateTable('risk_scenarios').set({ name: `Scenario ${randomUUID().slice(0, 8)}` }).where('id', '=', scenarios[step.scenario % SCENARIOS]!.id).execute();
          } else if (step.kind === 'recategorise') {
            await ctx.db.updateTable('risk_scenarios').set({ category: CATEGORIES[step.category % CATEGORIES.length]! }).where('id', '=', scenarios[step.scenario % SCENARIOS]!.id).execute();
          } else if (step.kind === 'approve' && bras.length > 0) {
            await ctx.db.updateTable('bras').set({ status: 'approved', approved_at: approvedAt() }).where('id', '=', bras[step.bra % bras.length]!.id).execute();
          } else if (step.kind === 'accept' && link !== undefined) {
            // An acceptance, in force or lapsed by its date (days < 0), unless one is active already.
            await ctx.db
              .insertInto('risk_acceptances')
              .values({
                enterprise_id: enterprise.id, bra_id: link.bra_id, bra_risk_scenario_id: link.id, rationale: 'Accepted for the test',
                expires_on: addDays(today, step.days), accepted_residual_score: 12, accepted_threshold: 9, accepted_by: admin.id,
              })
              .onConflict((oc) => oc.doNothing())
              .execute();
          }
        }

        expect(await keptEntries(enterprise.id)).toEqual(await liveEntries(enterprise.id));

        const headers = bearer(await tokenFor(ctx, admin));
        const queries = [
          '', 'sort=name', 'include_live=true', 'include_live=true&sort=name', 'category=Internal fraud', 'risk_level=High',
          'above_appetite=true', 'above_appetite=false&include_live=true', 'accepted=true', 'accepted=false&sort=name',
          'residual_impact=3', 'inherent_likelihood=2&include_live=true', `legal_entity_id=${other.id}`, 'include_live=true&page=2&page_size=3',
        ];
        for (const query of queries) {
          const params = new URLSearchParams(query);
          const pageSize = Number(params.get('page_size') ?? 100);
          const page = Number(params.get('page') ?? 1);
          if (!params.has('page_size')) params.set('page_size', '100');
          const response = await ctx.app.inject({ method: 'GET', url: `/api/v1/risk-register?${params}`, headers });
          expect(response.statusCode, response.body).toBe(200);
          const live = await liveRegister(enterprise.id, today, params);
          const body = response.json() as { data: ViewRow[]; pagination: { total: number } };
          expect(body.pagination.total, query).toBe(live.length);
          expect(body.data.map(fromView), query).toEqual(live.slice((page - 1) * pageSize, page * pageSize).map(fromLive));
        }

        const dashboard = await ctx.app.inject({ method: 'GET', url: '/api/v1/dashboard', headers });
        expect(dashboard.statusCode, dashboard.body).toBe(200);
        const figures = dashboard.json().data as {
          scenarios: { assessed: number; above_appetite: number; above_appetite_accepted: number };
          heat_maps: Record<'inherent' | 'residual', { cells: { impact_score: number; likelihood_score: number; count: number }[] }>;
          acceptances_expiring: { scenario_id: string; scenario_name: string; expires_on: string }[];
        };
        const register = await liveRegister(enterprise.id, today, new URLSearchParams());
        const cells = (kind: 'inherent' | 'residual') => {
          const counts = new Map<string, number>();
          for (const row of register) {
            if (row[`${kind}_impact`] === null) continue;
            const key = `${row[`${kind}_impact`]}/${row[`${kind}_likelihood`]}`;
            counts.set(key, (counts.get(key) ?? 0) + 1);
          }
          return Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)));
        };
        const cellsOf = (kind: 'inherent' | 'residual') =>
          Object.fromEntries(
            figures.heat_maps[kind].cells
              .filter((c) => c.count > 0)
              .map((c) => [`${c.impact_score}/${c.likelihood_score}`, c.count] as const)
              .sort(([a], [b]) => a.localeCompare(b)),
          );
        expect({
          assessed: figures.scenarios.assessed,
          above_appetite: figures.scenarios.above_appetite,
          above_appetite_accepted: figures.scenarios.above_appetite_accepted,
          inherent_cells: cellsOf('inherent'),
          residual_cells: cellsOf('residual'),
          acceptances_expiring: figures.acceptances_expiring.map((a) => [a.scenario_id, a.scenario_name, a.expires_on]),
        }).toEqual({
          assessed: register.filter((row) => row.inherent_score !== null && row.residual_score !== null).length,
          above_appetite: register.filter((row) => row.above_appetite).length,
          above_appetite_accepted: register.filter((row) => row.above_appetite && row.acceptance_id !== null).length,
          inherent_cells: cells('inherent'),
          residual_cells: cells('residual'),
          acceptances_expiring: register
            .filter((row) => row.accepted_until !== null && row.accepted_until <= addDays(today, 30))
            .sort((a, b) => a.accepted_until!.localeCompare(b.accepted_until!) || a.acceptance_id!.localeCompare(b.acceptance_id!))
            .slice(0, 10)
            .map((row) => [row.scenario_link_id, row.scenario_name, row.accepted_until]),
        });
      }),
      { numRuns: 30 },
    );
  }, 300_000);

  it('a rating written in a transaction rolled back leaves the entry as it was', async () => {
    const enterprise = await createEnterprise(ctx);
    const entity = await createLegalEntity(ctx, enterprise.id);
    const bra = await createBra(ctx, { enterpriseId: enterprise.id, legalEntityId: entity.id, status: 'in_progress' });
    const scenario = await createRiskScenario(ctx, enterprise.id);
    const link = await ctx.db.insertInto('bra_risk_scenarios').values({ enterprise_id: enterprise.id, bra_id: bra.id, risk_scenario_id: scenario.id }).returningAll().executeTakeFirstOrThrow();
    await ctx.db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('bra_ratings').values({ enterprise_id: enterprise.id, bra_id: bra.id, bra_risk_scenario_id: link.id, rating_type: 'residual', ...rateRisk(4, 3) }).execute();
        expect((await trx.selectFrom('register_entries').select('residual_score').where('scenario_link_id', '=', link.id).executeTakeFirstOrThrow()).residual_score).toBe(12);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await keptEntries(enterprise.id)).toEqual(await liveEntries(enterprise.id));
    expect((await ctx.db.selectFrom('register_entries').select('residual_score').where('scenario_link_id', '=', link.id).executeTakeFirstOrThrow()).residual_score).toBeNull();
  });
});
