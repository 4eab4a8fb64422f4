import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
// The bench's generator is plain JavaScript (bench/, run with tsx); its test keeps it valid as the schema evolves.
// @ts-expect-error -- an untyped .mjs module of the bench
import { BENCH_PASSWORD, SCALES, SCENARIOS_PER_BRA, generate } from '../../bench/data.mjs';
import { verifyAuditChain } from '../../src/platform/audit/chain-verifier.js';
import { createTestContext } from '../support/app.js';
import { asRuntimeRole, freshDatabase } from '../support/database.js';
import { providerCalls } from '../support/provider.js';

interface Tenant {
  idx: number;
  enterprise_id: string;
  bras: number;
  audit: number;
}

describe('the bench data generator (tiny scale)', async () => {
  const owner = await freshDatabase();
  const ownerUrl = owner.url;
  const { counts, plan } = (await generate(ownerUrl, 'tiny')) as { counts: Record<string, number>; plan: Tenant[] };
  const ctx = await createTestContext({ database: await asRuntimeRole(owner) });
  const tiny = SCALES.tiny;

  it('writes the scale\'s totals through the schema, every BRA with its scenarios, both ratings and a control link each', () => {
    expect(counts).toMatchObject({
      enterprises: tiny.enterprises,
      bras: tiny.bras,
      scenarios: tiny.bras * SCENARIOS_PER_BRA,
      ratings: tiny.bras * SCENARIOS_PER_BRA * 2,
      control_links: tiny.bras * SCENARIOS_PER_BRA,
      sub_controls: tiny.subControls,
      actions: tiny.actions,
      audit_entries: tiny.audit,
    });
  });

  it('skews the tenants: the biggest holds more than the smallest, in BRAs and in audit entries', () => {
    expect(plan[0]!.bras).toBeGreaterThan(plan.at(-1)!.bras);
    expect(plan[0]!.audit).toBeGreaterThan(2 * plan.at(-1)!.audit);
  });

  it('keeps the rules the service relies on: one current rating of each type per scenario, risk levels from the scores, the read models', async () => {
    const { rows } = await sql<{ scenarios_without_both: number; approved_without_approver: number; heads_behind: number; entries_off: number; figures_off: number }>`select
      (select count(*) from bra_risk_scenarios l where (select count(*) from bra_ratings r where r.bra_risk_scenario_id = l.id and r.superseded_at is null) <> 2)::int as scenarios_without_both,
      (select count(*) from bras where status = 'approved' and (approved_by is null or approved_at is null))::int as approved_without_approver,
      (select count(*) from audit_chain_heads h where h.last_seq <> (select max(chain_seq) from audit_log g where g.enterprise_id::text = h.chain_key))::int as heads_behind,
      -- The triggers that keep the register's entries and the residual figures are off during the load: both are computed after it.
      (select count(*) from bra_risk_scenarios l where l.included and not exists (
         select 1 from register_entries e join bra_ratings r on r.enterprise_id = e.enterprise_id and r.bra_risk_scenario_id = e.scenario_link_id
                                                            and r.rating_type = 'residual' and r.superseded_at is null
          where e.enterprise_id = l.enterprise_id and e.scenario_link_id = l.id and e.residual_score = r.risk_score))::int as entries_off,
      (select count(*) from bras b where b.status = 'approved' and not exists (
         select 1 from bra_residual_figures f where f.enterprise_id = b.enterprise_id and f.bra_id = b.id
            and f.scenarios = (select count(*) from bra_risk_scenarios l where l.enterprise_id = b.enterprise_id and l.bra_id = b.id and l.included)))::int as figures_off`.execute(ctx.db);
    expect(rows[0]).toEqual({ scenarios_without_both: 0, approved_without_approver: 0, heads_behind: 0, entries_off: 0, figures_off: 0 });
  });

  it('makes audit chains the service\'s own verification accepts, one per enterprise', async () => {
    for (const tenant of plan) {
      const verification = await verifyAuditChain(ctx.db, tenant.enterprise_id);
      expect(verification).toEqual({ valid: true, entries_checked: tenant.audit, first_invalid_id: null });
    }
  });

  it('makes users who sign in with the known password, and whose writes the service appends to the generated chain', async () => {
    const tenant = plan[0]!;
    const { signIn } = providerCalls(ctx);
    const token = (await signIn({ email: `admin-1@e${tenant.idx}.bench.test`, password: BENCH_PASSWORD })).access_token;
    const headers = { authorization: `Bearer ${token}` };
    const register = await ctx.app.inject({ method: 'GET', url: '/api/v1/risk-register', headers });
    expect(register.statusCode).toBe(200);
    expect(register.json().pagination.total).toBeGreaterThan(0);

    const live = await ctx.db.selectFrom('bras').innerJoin('bra_risk_scenarios as l', 'l.bra_id', 'bras.id')
      .select(['bras.id as bra_id', 'l.id as link_id']).where('bras.enterprise_id', '=', tenant.enterprise_id)
      .where('bras.status', '=', 'in_progress').executeTakeFirstOrThrow();
    const rating = await ctx.app.inject({
      method: 'POST', url: `/api/v1/bras/${live.bra_id}/ratings`, headers,
      payload: { bra_risk_scenario_id: live.link_id, rating_type: 'residual', impact_score: 2, likelihood_score: 3 },
    });
    expect(rating.statusCode).toBe(201);
    const verify = await ctx.app.inject({ method: 'GET', url: '/api/v1/audit/verify', headers });
    expect(verify.statusCode).toBe(200);
    // The generated entries, the sign-in and the rating: one chain, valid end to end.
    expect(verify.json().data).toMatchObject({ valid: true, entries_checked: tenant.audit + 2, first_invalid_id: null });
  });
});
