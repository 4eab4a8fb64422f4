import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { rateRisk } from '../../src/modules/bras/risk-rating.js';
import { createTestContext } from '../support/app.js';
import { addScenarioLink, createBra } from '../support/bras-factories.js';
import { bearer, createEnterprise, createLegalEntity, createUser, tokenFor } from '../support/factories.js';

/**
 * The dashboard's trend reads bra_residual_figures, one row per approved BRA that the database keeps (migration
 * 20261205100000). Here the live computation stays as the check: after random sequences of writes (BRAs
 * created in progress or approved, scenarios linked, included and excluded, residual ratings written,
 * superseded and cleared, BRAs approved), every row equals the figures computed from the ratings themselves, and the
 * dashboard's trend equals the trend computed live.
 */
describe('the residual figures of approved BRAs, kept by the database', async () => {
  const ctx = await createTestContext();

  type Op =
    | { kind: 'bra'; approved: boolean; period: number }
    | { kind: 'link'; bra: number; included: boolean }
    | { kind: 'rate'; link: number; impact: number; likelihood: number }
    | { kind: 'include'; link: number; included: boolean }
    | { kind: 'clear'; link: number }
    | { kind: 'approve'; bra: number };

  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('bra' as const), approved: fc.boolean(), period: fc.integer({ min: 0, max: 2 }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('link' as const), bra: fc.nat(), included: fc.boolean() }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('rate' as const), link: fc.nat(), impact: fc.integer({ min: 1, max: 5 }), likelihood: fc.integer({ min: 1, max: 5 }) }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('include' as const), link: fc.nat(), included: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('approve' as const), bra: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const), link: fc.nat() }) },
  );
  /** Each run starts from a few BRAs (approved or in progress), their first step always a new BRA. */
  const start: Op[] = [{ kind: 'bra', approved: true, period: 0 }, { kind: 'bra', approved: false, period: 1 }];

  /** An enterprise's approved BRAs `b`, each with the current residual ratings `r` of its included scenarios (the live computation). */
  const approvedWithResidualRatings = (enterpriseId: string) => sql`
          from bras b
          left join (bra_risk_scenarios l
                     join bra_ratings r on r.enterprise_id = l.enterprise_id and r.bra_id = l.bra_id and r.bra_risk_scenario_id = l.id
                                       and r.rating_type = 'residual' and r.superseded_at is null)
                 on l.enterprise_id = b.enterprise_id and l.bra_id = b.id and l.included
         where b.enterprise_id = ${enterpriseId} and b.status = 'approved'`;

  /** What the figures are, computed from the ratings (the statement the trend ran before the read model). */
  const liveFigures = async (enterpriseId: string) =>
    (
      await sql<{ bra_id: string; scenarios: number; score_sum: string; score_max: number | null }>`
        select b.id as bra_id, count(r.id)::int as scenarios, coalesce(sum(r.risk_score), 0)::text as score_sum, max(r.risk_score) as score_max
        ${approvedWithResidualRatings(enterpriseId)}
         group by b.id order by b.id`.execute(ctx.db)
    ).rows;

  const keptFigures = async (enterpriseId: string) =>
    (
      await sql<{ bra_id: string; scenarios: number; score_sum: string; score_max: number | null }>`
        select bra_id, scenarios, score_sum::text, score_max from bra_residual_figures where enterprise_id = ${enterpriseId} order by bra_id`.execute(ctx.db)
    ).rows;

  /** The trend computed live, as GET /dashboard answers it. */
  const liveTrend = async (enterpriseId: string) =>
    (
      await sql<{ period: string; bras: number; scenarios: number; average_residual_score: number | null; max_residual_score: number | null }>`
        select b.period, count(distinct b.id)::int as bras, count(r.id)::int as scenarios,
               round(avg(r.risk_score), 2)::float8 as average_residual_score, max(r.risk_score) as max_residual_score
        ${approvedWithResidualRatings(enterpriseId)}
         group by b.period order by b.period`.execute(ctx.db)
    ).rows;

  it('after any sequence of writes, every approved BRA has exactly its live figures, and the dashboard the live trend', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), async (generated) => {
        const ops = [...start, ...generated];
        const enterprise = await createEnterprise(ctx);
        const entity = await createLegalEntity(ctx, enterprise.id);
        const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
        const bras: { id: string; enterprise_id: string }[] = [];
        const links: { id: string; bra_id: string; enterprise_id: string }[] = [];
        for (const step of ops) {
          if (step.kind === 'bra') {
            const bra = await createBra(ctx, { enterpriseId: enterprise.id, legalEntityId: entity.id, status: step.approved ? 'approved' : 'in_progress' });
            await ctx.db.updateTable('bras').set({ period: `FY${2024 + step.period}`, approved_at: step.approved ? new Date() : null }).where('id', '=', bra.id).execute();
            bras.push(bra);
          } else if (step.kind === 'link' && bras.length > 0) {
            links.push(await addScenarioLink(ctx, bras[step.bra % bras.length]!, step.included));
          } else if (step.kind === 'rate' && links.length > 0) {
            // A new current residual rating supersedes the previous one, in one transaction, as a rating write does.
            const link = links[step.link % links.length]!;
            await ctx.db.transaction().execute(async (trx) => {
              await trx
                .updateTable('bra_ratings')
                .set({ superseded_at: new Date() })
                .where('enterprise_id', '=', link.enterprise_id)
                .where('bra_risk_scenario_id', '=', link.id)
                .where('rating_type', '=', 'residual')
                .where('superseded_at', 'is', null)
                .execute();
              await trx
                .insertInto('bra_ratings')
                .values({ enterprise_id: link.enterprise_id, bra_id: link.bra_id, bra_risk_scenario_id: link.id, rating_type: 'residual', ...rateRisk(step.impact, step.likelihood) })
                .execute();
            });
          } else if (step.kind === 'clear' && links.length > 0) {
            // The current residual rating superseded with none after it (the scenario left unrated).
            const link = links[step.link % links.length]!;
            await ctx.db.updateTable('bra_ratings').set({ superseded_at: new Date() }).where('bra_risk_scenario_id', '=', link.id).where('rating_type', '=', 'residual').where('superseded_at', 'is', null).execute();
          } else if (step.kind === 'include' && links.length > 0) {
            await ctx.db.updateTable('bra_risk_scenarios').set({ included: step.included }).where('id', '=', links[step.link % links.length]!.id).execute();
          } else if (step.kind === 'approve' && bras.length > 0) {
            await ctx.db.updateTable('bras').set({ status: 'approved', approved_at: new Date() }).where('id', '=', bras[step.bra % bras.length]!.id).execute();
          }
        }

        expect(await keptFigures(enterprise.id)).toEqual(await liveFigures(enterprise.id));
        const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/dashboard', headers: bearer(await tokenFor(ctx, admin)) });
        expect(response.statusCode, response.body).toBe(200);
        const trend = (response.json().data.trend as { period: string; bras: number; scenarios: number; average_residual_score: number | null; max_residual_score: number | null }[])
          .map(({ period, bras: count, scenarios, average_residual_score, max_residual_score }) => ({ period, bras: count, scenarios, average_residual_score, max_residual_score }))
          .sort((a, b) => a.period.localeCompare(b.period));
        expect(trend).toEqual(await liveTrend(enterprise.id));
      }),
      { numRuns: 100 },
    );
  }, 120_000);

  it('a BRA approved through the service gets its row in the approval’s transaction, with its figures', async () => {
    const enterprise = await createEnterprise(ctx);
    const entity = await createLegalEntity(ctx, enterprise.id);
    const bra = await createBra(ctx, { enterpriseId: enterprise.id, legalEntityId: entity.id, status: 'in_progress' });
    const link = await addScenarioLink(ctx, bra);
    await ctx.db.insertInto('bra_ratings').values({ enterprise_id: enterprise.id, bra_id: bra.id, bra_risk_scenario_id: link.id, rating_type: 'residual', ...rateRisk(4, 3) }).execute();
    expect(await keptFigures(enterprise.id)).toEqual([]);
    // Rolled back with the approval, the row goes with it.
    await ctx.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('bras').set({ status: 'approved', approved_at: new Date() }).where('id', '=', bra.id).execute();
        expect((await trx.selectFrom('bra_residual_figures').selectAll().where('bra_id', '=', bra.id).execute()).length).toBe(1);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await keptFigures(enterprise.id)).toEqual([]);
    await ctx.db.updateTable('bras').set({ status: 'approved', approved_at: new Date() }).where('id', '=', bra.id).execute();
    expect(await keptFigures(enterprise.id)).toEqual([{ bra_id: bra.id, scenarios: 1, score_sum: '12', score_max: 12 }]);
  });
});
