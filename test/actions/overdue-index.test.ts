import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  countActionsQuery,
  listActionsQuery,
  overdueUrgentQuery,
  type ActionFilter,
} from '../../src/modules/actions/actions.repository.js';
import type { Principal } from '../../src/platform/auth/principal.js';
import { createTestContext } from '../support/app.js';
import { insertActions, utcDate, type ActionValues } from '../support/actions-factories.js';
import { createEnterprise, createUser } from '../support/factories.js';

/**
 * The overdue filter (4.4) and the enterprise_health check (D9.5) read only open actions through their
 * partial indexes, never an enterprise's completed or archived history: checked with EXPLAIN on a few
 * thousand rows, on the list's own queries.
 */
describe('indexes behind overdue_only and enterprise_health (4.4, D9.5)', async () => {
  const ctx = await createTestContext();
  const enterprise = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const others = [await createEnterprise(ctx), await createEnterprise(ctx)];

  // 3,000 actions of one enterprise: 2,400 completed and 300 archived (history), 300 open of which 30 overdue;
  // and 2,000 of two other enterprises.
  const rows: ActionValues[] = [];
  for (let i = 0; i < 3000; i += 1) {
    const history = i < 2700;
    rows.push({
      enterpriseId: enterprise.id,
      status: i < 2400 ? 'completed' : i % 2 === 0 ? 'created' : 'in_progress',
      archived: i >= 2400 && i < 2700,
      priority: (['low', 'medium', 'high', 'critical'] as const)[i % 4],
      dueDate: history ? utcDate(-400 + (i % 390)) : i < 2730 ? utcDate(-(i % 20) - 1) : utcDate((i % 60) + 1),
      createdAt: new Date(Date.UTC(2024, 0, 1) + i * 3_600_000),
    });
  }
  for (let i = 0; i < 2000; i += 1) {
    rows.push({ enterpriseId: others[i % 2]!.id, status: i % 3 === 0 ? 'created' : 'completed', priority: 'high', dueDate: utcDate(-(i % 50)) });
  }
  await insertActions(ctx, rows);
  await sql`analyze mitigation_actions`.execute(ctx.db);

  const principal: Principal = {
    userId: admin.id,
    email: admin.email,
    fullName: admin.fullName,
    role: 'admin',
    enterpriseId: enterprise.id,
    sessionId: null,
    entityAssignments: [],
  };
  const overdue: ActionFilter = { overdueOn: utcDate(0), includeArchived: false };
  const planOf = async (query: { explain(): Promise<Record<string, unknown>[]> }) =>
    (await query.explain()).map((row) => String(row['QUERY PLAN'])).join('\n');

  it('the overdue_only page and its count use mitigation_actions_open_idx, without a sequential scan', async () => {
    for (const query of [
      listActionsQuery(ctx.db, enterprise.id, principal, overdue, 25, 0),
      countActionsQuery(ctx.db, enterprise.id, principal, overdue),
    ]) {
      const plan = await planOf(query);
      if (process.env['SHOW_PLANS']) console.log(plan);
      expect(plan).toContain('mitigation_actions_open_idx');
      expect(plan).not.toMatch(/Seq Scan on mitigation_actions/);
    }
  });

  it('the list and count still agree with the data (30 overdue of 3,000)', async () => {
    const count = await countActionsQuery(ctx.db, enterprise.id, principal, overdue).executeTakeFirstOrThrow();
    expect(Number(count.total)).toBe(30);
  });

  it('the enterprise_health check across enterprises uses mitigation_actions_urgent_due_idx', async () => {
    const plan = await planOf(overdueUrgentQuery(ctx.db, utcDate(0), 5));
    if (process.env['SHOW_PLANS']) console.log(plan);
    expect(plan).toContain('mitigation_actions_urgent_due_idx');
    expect(plan).not.toMatch(/Seq Scan on mitigation_actions/);
  });
});
