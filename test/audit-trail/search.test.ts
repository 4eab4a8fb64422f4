import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { sessionHeaders } from '../support/api.js';
import { expectAccessDenied } from '../support/audit.js';
import { createEnterprise, createUser } from '../support/factories.js';
import { appendAuditEntries, bulkAuditEntries } from '../support/governance-factories.js';

const at = (iso: string) => new Date(iso);

/** GET /api/v1/audit (4.6, D5, D7.5, D10.3). */
describe('audit search', async () => {
  const ctx = await createTestContext();
  const headers = sessionHeaders(ctx);
  const enterprise = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const reviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: enterprise.id });
  const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
  const superAdmin = await createUser(ctx, { role: 'super_admin' });
  const other = await createEnterprise(ctx);

  // Five days of the enterprise's trail; the bounds of each day are included on purpose.
  const ids = await appendAuditEntries(ctx, enterprise.id, [
    { createdAt: at('2026-01-01T00:00:00.000Z'), action: 'create', entityType: 'bra', user: admin },
    { createdAt: at('2026-01-01T12:00:00.000Z'), action: 'update', entityType: 'bra', user: assessor },
    { createdAt: at('2026-01-02T00:00:00.000Z'), action: 'login', entityType: null, entityId: null, user: reviewer },
    { createdAt: at('2026-01-02T23:59:59.999Z'), action: 'create', entityType: 'risk_appetite', user: admin },
    { createdAt: at('2026-01-03T00:00:00.000Z'), action: 'approve', entityType: 'bra', user: admin },
    { createdAt: at('2026-01-04T08:00:00.000Z'), action: 'update', entityType: 'mitigation_action', user: assessor },
    { createdAt: at('2026-01-05T23:59:59.999Z'), action: 'delete', entityType: 'risk_appetite', user: admin },
  ]);
  await appendAuditEntries(ctx, other.id, [{ createdAt: at('2026-01-02T10:00:00.000Z'), action: 'create', user: null }]);
  await appendAuditEntries(ctx, null, [{ createdAt: at('2026-01-02T11:00:00.000Z'), action: 'create', entityType: 'enterprise', user: superAdmin }]);
  const newestFirst = [...ids].reverse();

  const search = async (query: string, user = admin) =>
    ctx.app.inject({ method: 'GET', url: `/api/v1/audit${query}`, headers: await headers(user) });
  const idsOf = (response: { json(): any }) => response.json().data.map((entry: { id: string }) => entry.id);

  it("lists the enterprise's entries newest first, with exact pagination, and nothing of another trail (4.6, D10.3)", async () => {
    const response = await search('');
    expect(response.statusCode, response.body).toBe(200);
    expect(idsOf(response)).toEqual(newestFirst);
    expect(response.json().pagination).toEqual({
      page: 1, page_size: 25, total: 7, total_pages: 1, has_next: false, has_prev: false, total_is_estimate: false,
    });
    expect(response.json().data[0]).toEqual({
      id: ids[6],
      user_id: admin.id,
      user_email: admin.email,
      user_name: admin.fullName,
      action_type: 'delete',
      entity_type: 'risk_appetite',
      entity_id: expect.any(String),
      action_details: {},
      ip_address: '198.51.100.4',
      user_agent: 'seed',
      status: 'success',
      created_at: '2026-01-05T23:59:59.999Z',
    });
  });

  it('a reviewer sees the whole enterprise (D5)', async () => {
    const response = await search('', reviewer);
    expect(response.statusCode).toBe(200);
    expect(idsOf(response)).toEqual(newestFirst);
  });

  it.each([
    ['action_type=create', [3, 0]],
    ['entity_type=bra', [4, 1, 0]],
    ['entity_type=risk_appetite&action_type=delete', [6]],
    ['start_date=2026-01-02', [6, 5, 4, 3, 2]],
    ['end_date=2026-01-02', [3, 2, 1, 0]],
    ['start_date=2026-01-02&end_date=2026-01-02', [3, 2]],
    ['start_date=2026-01-05&end_date=2026-01-05', [6]],
    ['start_date=2026-01-02&end_date=2026-01-04&entity_type=bra', [4]],
    ['start_date=2026-02-01', []],
    ['end_date=2025-12-31', []],
  ])('filters with %s, date bounds inclusive (4.6, D7.5)', async (query, expected) => {
    const response = await search(`?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(idsOf(response)).toEqual((expected as number[]).map((i) => ids[i]));
    expect(response.json().pagination.total).toBe((expected as number[]).length);
  });

  it('filters by acting user, alone and with an action (4.6)', async () => {
    expect(idsOf(await search(`?user_id=${assessor.id}`))).toEqual([ids[5], ids[1]]);
    expect(idsOf(await search(`?user_id=${admin.id}&action_type=create`))).toEqual([ids[3], ids[0]]);
    expect(idsOf(await search(`?user_id=${superAdmin.id}`))).toEqual([]);
  });

  it('pages through the trail: page 2, a page past the end, page_size clamped to 100 (D2.5)', async () => {
    const second = await search('?page=2&page_size=3');
    expect(idsOf(second)).toEqual(newestFirst.slice(3, 6));
    expect(second.json().pagination).toMatchObject({ page: 2, page_size: 3, total: 7, total_pages: 3, has_next: true, has_prev: true });
    const last = await search('?page=3&page_size=3');
    expect(idsOf(last)).toEqual(newestFirst.slice(6));
    const past = await search('?page=9&page_size=3');
    expect(idsOf(past)).toEqual([]);
    expect(past.json().pagination).toMatchObject({ total: 7, has_next: false, has_prev: true });
    const filteredSecond = await search('?entity_type=bra&page=2&page_size=2');
    expect(idsOf(filteredSecond)).toEqual([ids[0]]);
    expect(filteredSecond.json().pagination).toMatchObject({ total: 3, total_pages: 2, has_next: false });
    expect((await search('?page_size=500')).json().pagination.page_size).toBe(100);
  });

  it.each([
    'action_type=archive',
    'entity_type=spaceship',
    'user_id=not-a-uuid',
    'start_date=2026-13-01',
    'end_date=yesterday',
    'start_date=2026-01-05&end_date=2026-01-01',
    'page=0',
  ])('refuses a malformed query (%s) with 400 BAD_REQUEST (D2.2)', async (query) => {
    const response = await search(`?${query}`);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ code: 'BAD_REQUEST', request_id: expect.any(String) });
  });

  it('refuses an assessor and a super admin with 403, each refusal audited (D5)', async () => {
    await expectAccessDenied(ctx, assessor, await search('', assessor), 'audit.search');
    await expectAccessDenied(ctx, superAdmin, await search('', superAdmin), 'audit.search');
  });
});

/** The total of a large filtered result: exact up to 10,000, then a flagged estimate (docs/decisions.md). */
describe('audit search totals on a large trail', async () => {
  const ctx = await createTestContext();
  const headers = sessionHeaders(ctx);
  const enterprise = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  await bulkAuditEntries(ctx, enterprise.id, 10_050, { start: at('2026-03-01T00:00:00.000Z'), action: 'login' });
  await appendAuditEntries(ctx, enterprise.id, [
    { createdAt: at('2026-03-02T00:00:00.000Z'), action: 'create', entityType: 'bra', user: admin },
    { createdAt: at('2026-03-02T00:00:01.000Z'), action: 'update', entityType: 'bra', user: admin },
  ]);
  const search = async (query: string) =>
    ctx.app.inject({ method: 'GET', url: `/api/v1/audit${query}`, headers: await headers(admin) });

  it('without an attribute filter the total is exact at any size and any depth', async () => {
    const response = await search('?page=400&page_size=25');
    expect(response.json().pagination).toMatchObject({ total: 10_052, total_pages: 403, has_next: true, total_is_estimate: false });
    expect(response.json().data).toHaveLength(25);
    const chainSeqs = response.json().data.map((entry: { action_details: { n: number } }) => entry.action_details.n);
    // A bulk entry's `n` is its chain position: page 400 starts 399 × 25 entries below the head (10,052).
    expect(chainSeqs).toEqual(Array.from({ length: 25 }, (_, i) => 10_052 - 399 * 25 - i));
  });

  it('a filter matching more than 10,000 entries answers a flagged estimate, never below 10,001, has_next exact', async () => {
    const response = await search('?action_type=login&page=1');
    expect(response.statusCode).toBe(200);
    const { pagination } = response.json();
    expect(pagination.total_is_estimate).toBe(true);
    expect(pagination.total).toBeGreaterThan(10_000);
    expect(pagination.has_next).toBe(true);
    const lastPage = await search('?action_type=login&page=101&page_size=100');
    expect(lastPage.json().data).toHaveLength(50);
    expect(lastPage.json().pagination.has_next).toBe(false);
  });

  it('a filter matching up to 10,000 entries answers the exact total', async () => {
    const response = await search('?entity_type=bra&action_type=create');
    expect(response.json().pagination).toMatchObject({ total: 1, total_is_estimate: false });
  });
});
