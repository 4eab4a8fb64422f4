import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { createBra, createScenarioLink, insertAction, utcDate } from '../support/actions-factories.js';
import { createEnterprise, createUser, tokenFor } from '../support/factories.js';
import { calls } from '../support/cast.js';

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** GET /mitigation-actions (4.4): every filter alone and combined, pagination (D2.5), is_overdue (D7.3). */
describe('listing mitigation actions (4.4, D2.5, D7.3)', async () => {
  const ctx = await createTestContext();
  const { call } = calls(ctx);
  const enterprise = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const token = await tokenFor(ctx, admin);

  const braOne = await createBra(ctx, { enterpriseId: enterprise.id, name: 'Payments BRA 2026' });
  const braTwo = await createBra(ctx, { enterpriseId: enterprise.id, name: 'Lending BRA 2026' });
  const link = await createScenarioLink(ctx, braOne, { scenarioName: 'Card skimming at ATMs' });

  // Known creation times, oldest first, so the order (newest first) can be asserted exactly.
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 9, minute));
  const base = { enterpriseId: enterprise.id, createdBy: admin.id };
  const a1 = await insertAction(ctx, { ...base, braId: braOne.id, linkId: link.id, status: 'created', priority: 'high', dueDate: utcDate(-1), createdAt: at(1), action: 'Replace ATM card readers', owner: 'ATM Operations', actionType: 'Preventive' });
  const a2 = await insertAction(ctx, { ...base, braId: braOne.id, status: 'in_progress', priority: 'critical', dueDate: utcDate(0), createdAt: at(2) });
  const a3 = await insertAction(ctx, { ...base, braId: braTwo.id, status: 'completed', priority: 'high', dueDate: utcDate(-1), createdAt: at(3) });
  const a4 = await insertAction(ctx, { ...base, status: 'created', priority: 'low', dueDate: utcDate(1), createdAt: at(4) });
  const a5 = await insertAction(ctx, { ...base, braId: braTwo.id, status: 'in_progress', priority: 'medium', dueDate: utcDate(-10), createdAt: at(5) });
  const a6 = await insertAction(ctx, { ...base, braId: braOne.id, status: 'created', priority: 'high', dueDate: utcDate(-1), archived: true, createdAt: at(6) });
  const a7 = await insertAction(ctx, { ...base, status: 'completed', priority: 'low', dueDate: utcDate(1), createdAt: at(7) });

  const list = (query = '') => call(token, 'GET', `/mitigation-actions${query}`);
  const idsOf = async (query: string) => {
    const response = await list(query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.map((item: { id: string }) => item.id);
  };

  it('lists the unarchived actions newest first, each with the fields of 2.4', async () => {
    const response = await list();
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'pagination']);
    expect(body.data.map((item: { id: string }) => item.id)).toEqual([a7.id, a5.id, a4.id, a3.id, a2.id, a1.id]);
    expect(body.pagination).toEqual({ page: 1, page_size: 25, total: 6, total_pages: 1, has_next: false, has_prev: false });
    const first = body.data.at(-1);
    expect(first).toEqual({
      id: a1.id,
      action: 'Replace ATM card readers',
      owner: 'ATM Operations',
      owner_user_id: null,
      owner_user: null,
      status: 'created',
      priority: 'high',
      action_type: 'Preventive',
      due_date: utcDate(-1),
      bra_id: braOne.id,
      bra_risk_scenario_id: link.id,
      is_overdue: true,
      archived: false,
      created_at: at(1).toISOString(),
      updated_at: expect.stringMatching(ISO_Z),
      bra: { name: 'Payments BRA 2026' },
      risk_scenario: { name: 'Card skimming at ATMs' },
      abilities: { update: true, archive: true },
    });
  });

  it('names the BRA of a linked action without a scenario, and neither for an unlinked one (2.4)', async () => {
    const data = (await list()).json().data;
    expect(data.find((item: { id: string }) => item.id === a5.id)).toMatchObject({ bra: { name: 'Lending BRA 2026' }, risk_scenario: null, bra_risk_scenario_id: null });
    expect(data.find((item: { id: string }) => item.id === a4.id)).toMatchObject({ bra_id: null, bra: null, risk_scenario: null });
  });

  it('is_overdue: due yesterday yes, today no, tomorrow no, completed never (D7.3, UTC date at read time)', async () => {
    const data = (await list('?archived=true')).json().data;
    const overdue = Object.fromEntries(data.map((item: { id: string; is_overdue: boolean }) => [item.id, item.is_overdue]));
    expect(overdue).toEqual({
      [a1.id]: true, // created, due yesterday
      [a2.id]: false, // due today
      [a3.id]: false, // completed, due yesterday
      [a4.id]: false, // due tomorrow
      [a5.id]: true, // in progress, due ten days ago
      [a6.id]: true, // archived does not change the maths
      [a7.id]: false, // completed, due tomorrow
    });
  });

  it.each([
    ['bra_id', `?bra_id=${braOne.id}`, [a2, a1]],
    ['status', '?status=in_progress', [a5, a2]],
    ['status completed', '?status=completed', [a7, a3]],
    ['priority', '?priority=high', [a3, a1]],
    ['overdue_only=true', '?overdue_only=true', [a5, a1]],
    ['overdue_only=false (no filter)', '?overdue_only=false', [a7, a5, a4, a3, a2, a1]],
    ['archived=true (archived included)', '?archived=true', [a7, a6, a5, a4, a3, a2, a1]],
    ['archived=false (the default)', '?archived=false', [a7, a5, a4, a3, a2, a1]],
  ])('filter %s alone', async (_name, query, expected) => {
    expect(await idsOf(query)).toEqual(expected.map((action) => action.id));
  });

  it.each([
    ['bra_id + overdue_only', `?bra_id=${braOne.id}&overdue_only=true`, [a1]],
    ['bra_id + overdue_only + archived', `?bra_id=${braOne.id}&overdue_only=true&archived=true`, [a6, a1]],
    ['bra_id + archived', `?bra_id=${braOne.id}&archived=true`, [a6, a2, a1]],
    ['status + priority', '?status=created&priority=high', [a1]],
    ['status + priority + archived', '?status=created&priority=high&archived=true', [a6, a1]],
    ['every filter', `?bra_id=${braTwo.id}&status=in_progress&priority=medium&overdue_only=true&archived=false`, [a5]],
    ['completed + overdue_only (never both)', '?status=completed&overdue_only=true', []],
    ['priority + bra_id with no match', `?priority=critical&bra_id=${braTwo.id}`, []],
    ['status + bra_id', `?status=completed&bra_id=${braTwo.id}`, [a3]],
  ])('filters combined: %s', async (_name, query, expected) => {
    expect(await idsOf(query)).toEqual(expected.map((action) => action.id));
  });

  it('paginates with correct totals; a page past the end is empty; page_size above 100 is clamped (D2.5)', async () => {
    const first = (await list('?page_size=2')).json();
    expect(first.data.map((item: { id: string }) => item.id)).toEqual([a7.id, a5.id]);
    expect(first.pagination).toEqual({ page: 1, page_size: 2, total: 6, total_pages: 3, has_next: true, has_prev: false });
    const last = (await list('?page_size=2&page=3')).json();
    expect(last.data.map((item: { id: string }) => item.id)).toEqual([a2.id, a1.id]);
    expect(last.pagination).toMatchObject({ page: 3, has_next: false, has_prev: true });
    const beyond = (await list('?page_size=2&page=4')).json();
    expect(beyond).toEqual({ data: [], pagination: { page: 4, page_size: 2, total: 6, total_pages: 3, has_next: false, has_prev: true } });
    expect((await list('?page_size=500')).json().pagination.page_size).toBe(100);
    const filtered = (await list('?overdue_only=true&page_size=1&page=2')).json();
    expect(filtered.data.map((item: { id: string }) => item.id)).toEqual([a1.id]);
    expect(filtered.pagination).toMatchObject({ total: 2, total_pages: 2 });
  });

  it.each([
    ['an unknown status', '?status=done'],
    ['an unknown priority', '?priority=urgent'],
    ['a malformed bra_id', '?bra_id=not-a-uuid'],
    ['overdue_only other than true/false', '?overdue_only=yes'],
    ['archived as 1', '?archived=1'],
    ['page 0', '?page=0'],
    ['page_size abc', '?page_size=abc'],
  ])('refuses %s with 400 BAD_REQUEST (D2.2, D2.6)', async (_name, query) => {
    const response = await list(query);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ code: 'BAD_REQUEST', request_id: expect.any(String) });
  });

  it("another enterprise's admin sees none of these actions, and a bra_id of another enterprise is 400 INVALID_REFERENCE, as an unknown one (cross-tenant)", async () => {
    const other = await createEnterprise(ctx);
    const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: other.id });
    const foreign = await insertAction(ctx, { enterpriseId: other.id });
    const otherToken = await tokenFor(ctx, otherAdmin);
    const response = await call(otherToken, 'GET', '/mitigation-actions?archived=true');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.map((item: { id: string }) => item.id)).toEqual([foreign.id]);
    const byForeignBra = await call(otherToken, 'GET', `/mitigation-actions?bra_id=${braOne.id}`);
    expect(byForeignBra.statusCode, byForeignBra.body).toBe(400);
    expect(byForeignBra.json()).toMatchObject({ code: 'INVALID_REFERENCE', details: { field: 'bra_id' } });
    expect(byForeignBra.body.replace(/"request_id":"[^"]+"/, '')).toBe(
      (await call(otherToken, 'GET', `/mitigation-actions?bra_id=${randomUUID()}`)).body.replace(/"request_id":"[^"]+"/, ''),
    );
  });
});
