import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { calls } from '../support/cast.js';
import { createBraRow, createKeyControl, createSubControl, linkSubControlToBra } from '../support/controls-factories.js';
import { assignEntity, createEnterprise, createLegalEntity, createUser, type TestUser } from '../support/factories.js';

type Row = { id: string; name: string; description: string | null; created_at: string };
type Answer = { data: Row[]; next_cursor?: string | null };

/**
 * The sub-control list's additive search and keyset paging (decisions.md, "The sub-control list: search and
 * keyset pages"): without limit the interface's whole list with only `data`; with limit, pages that walk the
 * list once in its order, cursors bound to the enterprise and the filters, refusals in D2's shape.
 */
describe('GET /controls/sub-controls: q, limit and cursor (additive)', async () => {
  const ctx = await createTestContext();
  const enterprise = await createEnterprise(ctx);
  const other = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: other.id });
  const { call } = calls(ctx);

  const payments = await createKeyControl(ctx, enterprise.id, { name: 'Payments' });
  const access = await createKeyControl(ctx, enterprise.id, { name: 'Access' });
  // 23 sub-controls, several created in the same microsecond: the id breaks the ties of the order.
  for (let i = 0; i < 20; i += 1) {
    const sub = await createSubControl(ctx, enterprise.id, { keyControlId: i % 2 === 0 ? payments.id : access.id, name: `Routine check ${String(i).padStart(2, '0')}` });
    if (i % 4 === 0) await sql`update sub_controls set created_at = '2026-06-30T12:00:00.123456Z' where id = ${sub.id}`.execute(ctx.db);
  }
  const byName = await createSubControl(ctx, enterprise.id, { keyControlId: payments.id, name: 'Dual AUTHORISATION of payments' });
  const byDescription = await createSubControl(ctx, enterprise.id, { keyControlId: access.id, name: 'Quarterly review' });
  await ctx.db.updateTable('sub_controls').set({ description: 'Every authorisation is reviewed by the controller' }).where('id', '=', byDescription.id).execute();
  const wildcard = await createSubControl(ctx, enterprise.id, { keyControlId: access.id, name: 'Limit 10%_off approved' });
  // Another enterprise's sub-controls share the names: they never appear here.
  const foreign = await createSubControl(ctx, other.id, { name: 'Dual authorisation of payments' });
  for (let i = 0; i < 3; i += 1) await createSubControl(ctx, other.id, { name: `Routine check ${i}` });

  const list = (user: TestUser, query = '') => call(user, 'GET', `/controls/sub-controls${query}`);
  const ok = async (user: TestUser, query = ''): Promise<Answer> => {
    const response = await list(user, query);
    expect(response.statusCode, `${query}: ${response.body}`).toBe(200);
    return response.json() as Answer;
  };
  /** Every page of a query, following next_cursor; the pages' sizes too. */
  const walk = async (user: TestUser, query: string, limit: number) => {
    const ids: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null | undefined;
    for (let pages = 0; pages < 100; pages += 1) {
      const page = await ok(user, `?${query}${query ? '&' : ''}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(Object.keys(page).sort()).toEqual(['data', 'next_cursor']);
      ids.push(...page.data.map((row) => row.id));
      sizes.push(page.data.length);
      cursor = page.next_cursor;
      if (cursor === null) return { ids, sizes };
      expect(typeof cursor).toBe('string');
    }
    throw new Error('the pages never ended');
  };
  const expectRefused = async (user: TestUser, query: string, field: string) => {
    const response = await list(user, query);
    expect(response.statusCode, `${query}: ${response.body}`).toBe(400);
    expect(response.json()).toMatchObject({ code: 'BAD_REQUEST', details: { fields: [{ field, message: expect.any(String) }] } });
    return response.json() as { details: { fields: Array<{ field: string; message: string }> } };
  };

  const whole = await ok(admin);

  it('without limit the answer is as before: every row, newest first (id breaking ties), only `data`', async () => {
    expect(Object.keys(whole)).toEqual(['data']);
    expect(whole.data).toHaveLength(23);
    const rows = await ctx.db.selectFrom('sub_controls').select('id').where('enterprise_id', '=', enterprise.id).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    expect(whole.data.map((row) => row.id)).toEqual(rows.map((row) => row.id));
  });

  it.each([1, 5, 7, 23, 500])('limit=%i walks every row exactly once, in the same order, and ends with next_cursor null', async (limit) => {
    const { ids, sizes } = await walk(admin, '', limit);
    expect(ids).toEqual(whole.data.map((row) => row.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(sizes.every((size) => size <= limit)).toBe(true);
    // A page that ends the list says so: no empty page after a full last one.
    expect(sizes.at(-1)).toBeGreaterThan(0);
  });

  it('filters combine with the pages: key_control_id, archived, and the answer rows are the whole records', async () => {
    const { ids } = await walk(admin, `key_control_id=${payments.id}`, 4);
    expect(ids).toEqual((await ok(admin, `?key_control_id=${payments.id}`)).data.map((row) => row.id));
    expect(ids).toHaveLength(11);
    const first = await ok(admin, '?limit=1');
    expect(first.data[0]).toEqual(whole.data[0]);
  });

  it('q finds its text in the name or the description, case-insensitively, trimmed, literally; empty q is no search', async () => {
    const found = await ok(admin, `?q=${encodeURIComponent('  authorisation ')}`);
    expect(Object.keys(found)).toEqual(['data']);
    expect(found.data.map((row) => row.id).sort()).toEqual([byName.id, byDescription.id].sort());
    expect((await ok(admin, '?q=AUTHORISATION')).data).toHaveLength(2);
    // % and _ are the text's own, not wildcards.
    expect((await ok(admin, `?q=${encodeURIComponent('10%_off')}`)).data.map((row) => row.id)).toEqual([wildcard.id]);
    expect((await ok(admin, `?q=${encodeURIComponent('%')}`)).data.map((row) => row.id)).toEqual([wildcard.id]);
    expect((await ok(admin, '?q=_')).data.map((row) => row.id)).toEqual([wildcard.id]);
    expect((await ok(admin, '?q=')).data).toHaveLength(23);
    expect((await ok(admin, '?q=%20%20')).data).toHaveLength(23);
    expect((await ok(admin, '?q=nothing-like-it')).data).toEqual([]);
  });

  it('q combines with key_control_id and with the pages', async () => {
    expect((await ok(admin, `?q=authorisation&key_control_id=${payments.id}`)).data.map((row) => row.id)).toEqual([byName.id]);
    expect((await ok(admin, `?q=authorisation&key_control_id=${access.id}`)).data.map((row) => row.id)).toEqual([byDescription.id]);
    const { ids } = await walk(admin, 'q=routine', 3);
    expect(ids).toEqual((await ok(admin, '?q=routine')).data.map((row) => row.id));
    expect(ids).toHaveLength(20);
  });

  it('a forged or malformed cursor is 400 naming the cursor, never a 500', async () => {
    const forge = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
    for (const cursor of [
      'not-a-cursor',
      'a%20b',
      '%E2%80%AE',
      forge({ at: '2026-02-31T00:00:00.000000Z', id: whole.data[0]!.id, b: 'x' }),
      forge({ at: "2026-01-01'; drop table sub_controls; --", id: whole.data[0]!.id, b: 'x' }),
      forge({ at: '2026-01-01T00:00:00.000000Z', id: whole.data[0]!.id, b: 'forged-binding' }),
      forge([1]),
      'x'.repeat(600),
    ]) {
      await expectRefused(admin, `?limit=5&cursor=${cursor}`, 'cursor');
    }
  });

  it('a cursor belongs to its filters, and needs limit', async () => {
    const first = await ok(admin, '?limit=5&q=routine');
    const cursor = encodeURIComponent(first.next_cursor!);
    await expectRefused(admin, `?limit=5&q=check&cursor=${cursor}`, 'cursor');
    await expectRefused(admin, `?limit=5&q=routine&key_control_id=${payments.id}&cursor=${cursor}`, 'cursor');
    await expectRefused(admin, `?limit=5&q=routine&archived=true&cursor=${cursor}`, 'cursor');
    await expectRefused(admin, `?q=routine&cursor=${cursor}`, 'cursor');
    // Another limit is the same query: the page size may change along the way.
    expect((await ok(admin, `?limit=2&q=routine&cursor=${cursor}`)).data).toHaveLength(2);
  });

  it.each(['0', '501', '-1', '2.5', 'ten', ''])('limit=%s is 400 naming limit', async (limit) => {
    await expectRefused(admin, `?limit=${limit}`, 'limit');
  });

  it('q longer than 200 characters is 400 naming q', async () => {
    await expectRefused(admin, `?q=${'a'.repeat(201)}`, 'q');
    expect((await list(admin, `?q=${'a'.repeat(200)}`)).statusCode).toBe(200);
  });

  it("another enterprise's sub-controls never appear, and a cursor does not cross enterprises", async () => {
    const theirs = await ok(otherAdmin, '?q=authorisation&limit=50');
    expect(theirs.data.map((row) => row.id)).toEqual([foreign.id]);
    const { ids } = await walk(admin, '', 6);
    expect(ids).not.toContain(foreign.id);
    const mine = await ok(admin, '?limit=2');
    const response = await list(otherAdmin, `?limit=2&cursor=${encodeURIComponent(mine.next_cursor!)}`);
    expect(response.statusCode).toBe(400);
    expect(response.body).not.toContain(whole.data[2]!.id);
  });

  describe('assessors limited to their entities see what they saw before', async () => {
    const bank = await createLegalEntity(ctx, enterprise.id, 'Bank');
    const insurance = await createLegalEntity(ctx, enterprise.id, 'Insurance');
    const braBank = await createBraRow(ctx, enterprise.id, { legalEntityId: bank.id });
    const braInsurance = await createBraRow(ctx, enterprise.id, { legalEntityId: insurance.id });
    const linked = whole.data.filter((row) => row.id !== byName.id && row.id !== byDescription.id).slice(0, 9);
    for (const [index, sub] of linked.entries()) await linkSubControlToBra(ctx, enterprise.id, (index < 6 ? braBank : braInsurance).id, sub.id);
    await linkSubControlToBra(ctx, enterprise.id, braBank.id, byName.id);
    const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: enterprise.id });
    await assignEntity(ctx, assessor, bank.id);

    it('the whole library without a scope filter (D5), paged as the admin', async () => {
      expect((await ok(assessor)).data.map((row) => row.id)).toEqual(whole.data.map((row) => row.id));
      expect((await walk(assessor, '', 10)).ids).toEqual(whole.data.map((row) => row.id));
    });

    it('an assigned entity: the same rows paged as whole, searched too; an unassigned one stays 403 with limit', async () => {
      const scoped = (await ok(assessor, `?legal_entity_id=${bank.id}`)).data.map((row) => row.id);
      expect(scoped).toHaveLength(7);
      expect((await walk(assessor, `legal_entity_id=${bank.id}`, 3)).ids).toEqual(scoped);
      expect((await ok(assessor, `?legal_entity_id=${bank.id}&q=authorisation&limit=10`)).data.map((row) => row.id)).toEqual([byName.id]);
      for (const query of [`?legal_entity_id=${insurance.id}`, `?legal_entity_id=${insurance.id}&limit=10`, `?bra_id=${braInsurance.id}&limit=10&q=routine`]) {
        expect((await list(assessor, query)).statusCode, query).toBe(403);
      }
    });
  });
});
