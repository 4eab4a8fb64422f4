import { describe, expect, it } from 'vitest';
import { runDemo } from '../../src/demo/run-demo.js';
import { DEMO_MEMBERS } from '../../src/demo/demo-data.js';
import { createTestContext } from '../support/app.js';
import { freshDatabase } from '../support/database.js';
import { bearer } from '../support/factories.js';

/** `npm run demo` gives the demo enterprise an action plan: every status, some overdue, one archived, linked and unlinked. */
describe('demo mitigation actions', async () => {
  const database = await freshDatabase();
  const ctx = await createTestContext({ database });
  await runDemo(database, ctx.config);

  const signIn = async (key: string) => {
    const person = DEMO_MEMBERS.find((member) => member.key === key)!;
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      headers: { apikey: ctx.secrets.anonKey, 'content-type': 'application/json' },
      payload: { email: person.email, password: person.password },
    });
    return bearer(response.json().access_token);
  };
  const list = async (key: string, query = '') => {
    const response = await ctx.app.inject({ method: 'GET', url: `/api/v1/mitigation-actions${query}`, headers: await signIn(key) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as Array<{ status: string; is_overdue: boolean; archived: boolean; owner: string }>;
  };

  it('the client admin sees actions in every status, some overdue, and the archived one only with archived=true', async () => {
    const actions = await list('client_admin');
    expect(new Set(actions.map((action) => action.status))).toEqual(new Set(['created', 'in_progress', 'completed']));
    expect(actions.filter((action) => action.is_overdue).length).toBeGreaterThanOrEqual(2);
    expect(actions.some((action) => action.archived)).toBe(false);
    const withArchived = await list('client_admin', '?archived=true');
    expect(withArchived.filter((action) => action.archived)).toHaveLength(1);
  });

  it('some actions address a demo BRA or one of its scenarios, and carry their names (2.4)', async () => {
    const actions = (await list('client_admin')) as unknown as Array<{ bra: { name: string } | null; risk_scenario: { name: string } | null }>;
    expect(actions.filter((action) => action.bra !== null).map((action) => action.bra!.name)).toContain('Treasury operations BRA FY2026');
    expect(actions.filter((action) => action.risk_scenario !== null).map((action) => action.risk_scenario!.name)).toContain(
      'Payment fraud by impersonation',
    );
    expect(actions.some((action) => action.bra === null)).toBe(true);
  });

  it("the assessor sees the unlinked action they created (D5)", async () => {
    const actions = await list('assessor_bank');
    expect(actions.map((action) => action.owner)).toContain('Marcus Reid');
  });
});
