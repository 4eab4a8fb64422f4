import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { expectAccessDenied } from '../support/audit.js';
import { createBra, createBraWorld } from '../support/bras-factories.js';
import { createBusinessUnit, createLegalEntity, type TestUser } from '../support/factories.js';

/** GET /bras (4.2): filters, pagination (D2.5), the role scope as a SQL predicate (D5), filter refusals (D10.1). */
describe('GET /bras', async () => {
  const ctx = await createTestContext();
  const w = await createBraWorld(ctx);
  const headersOf = sessionHeaders(ctx);
  const list = async (user: TestUser, query = '') => ctx.app.inject({ method: 'GET', url: `/api/v1/bras${query}`, headers: await headersOf(user) });

  // Known creation times, so that the order can be asserted: index 0 is the oldest.
  const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes)).toISOString();
  const specs = [
    { legalEntityId: w.entity.id, businessUnitId: null, status: 'draft' },
    { legalEntityId: w.entity.id, businessUnitId: w.unit.id, status: 'in_progress' },
    { legalEntityId: w.entity.id, businessUnitId: w.unit.id, status: 'approved' },
    { legalEntityId: w.entity.id, businessUnitId: w.otherUnit.id, status: 'draft' },
    { legalEntityId: w.elsewhere.id, businessUnitId: null, status: 'under_review' },
    { legalEntityId: w.elsewhere.id, businessUnitId: null, status: 'cancelled' },
  ] as const;
  const bras: Awaited<ReturnType<typeof createBra>>[] = [];
  for (const [index, spec] of specs.entries()) {
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, ...spec, name: `Listed ${index}` });
    await ctx.db.updateTable('bras').set({ created_at: at(index) } as never).where('id', '=', bra.id).execute();
    bras.push(bra);
  }
  await createBra(ctx, { enterpriseId: w.other.id, legalEntityId: w.otherEntity.id });
  const ids = (response: { json(): any }) => response.json().data.map((b: { id: string }) => b.id);
  const newestFirst = (...indexes: number[]) => indexes.sort((a, b) => b - a).map((i) => bras[i]!.id);

  it('a client admin sees every BRA of the enterprise, newest first, with legal_entity and business_unit, message and pagination', async () => {
    const response = await list(w.admin);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(ids(response)).toEqual(newestFirst(0, 1, 2, 3, 4, 5));
    expect(body.message).toEqual(expect.any(String));
    expect(body.pagination).toEqual({ page: 1, page_size: 25, total: 6, total_pages: 1, has_next: false, has_prev: false });
    expect(body.data.find((b: { id: string }) => b.id === bras[1]!.id)).toMatchObject({
      name: 'Listed 1',
      status: 'in_progress',
      legal_entity: { id: w.entity.id, name: w.entity.name },
      business_unit: { id: w.unit.id, name: w.unit.name },
      completion_date: null,
      created_at: at(1),
    });
    expect(body.data.find((b: { id: string }) => b.id === bras[0]!.id).business_unit).toBeNull();
  });

  it('filters by status, legal entity and business unit, alone and together', async () => {
    expect(ids(await list(w.admin, '?status=draft'))).toEqual(newestFirst(0, 3));
    expect(ids(await list(w.admin, `?legal_entity_id=${w.elsewhere.id}`))).toEqual(newestFirst(4, 5));
    expect(ids(await list(w.admin, `?business_unit_id=${w.unit.id}`))).toEqual(newestFirst(1, 2));
    expect(ids(await list(w.admin, `?legal_entity_id=${w.entity.id}&business_unit_id=${w.unit.id}&status=approved`))).toEqual(newestFirst(2));
    expect((await list(w.admin, '?status=cancelled')).json().pagination.total).toBe(1);
  });

  it('pages with correct totals; a page past the end is empty; page_size above 100 is clamped (D2.5)', async () => {
    const first = await list(w.admin, '?page_size=4');
    expect(ids(first)).toEqual(newestFirst(2, 3, 4, 5));
    expect(first.json().pagination).toEqual({ page: 1, page_size: 4, total: 6, total_pages: 2, has_next: true, has_prev: false });
    const second = await list(w.admin, '?page_size=4&page=2');
    expect(ids(second)).toEqual(newestFirst(0, 1));
    expect(second.json().pagination).toMatchObject({ has_next: false, has_prev: true });
    const beyond = await list(w.admin, '?page_size=4&page=9');
    expect(beyond.json()).toMatchObject({ data: [], pagination: { total: 6, total_pages: 2 } });
    expect((await list(w.admin, '?page_size=500')).json().pagination.page_size).toBe(100);
  });

  it('assessors and reviewers see only BRAs of their assignments, with totals to match (D5: SQL scope)', async () => {
    const reviewer = await list(w.reviewer);
    expect(ids(reviewer)).toEqual(newestFirst(0, 1, 2, 3));
    expect(reviewer.json().pagination.total).toBe(4);
    const unitOnly = await list(w.unitAssessor, '?page_size=1');
    expect(ids(unitOnly)).toEqual(newestFirst(2));
    expect(unitOnly.json().pagination).toMatchObject({ total: 2, total_pages: 2 });
    expect(ids(await list(w.outsideAssessor))).toEqual(newestFirst(4, 5));
    expect(ids(await list(w.unitAssessor, `?legal_entity_id=${w.entity.id}`))).toEqual(newestFirst(1, 2));
  });

  it('a filter naming an unassigned entity or unit → 403 with an access_denied entry (D10.1)', async () => {
    await expectAccessDenied(ctx, w.reviewer, await list(w.reviewer, `?legal_entity_id=${w.elsewhere.id}`), 'bras.list');
    await expectAccessDenied(ctx, w.unitAssessor, await list(w.unitAssessor, `?business_unit_id=${w.otherUnit.id}`), 'bras.list');
    await expectAccessDenied(ctx, w.outsideAssessor, await list(w.outsideAssessor, `?business_unit_id=${w.unit.id}`), 'bras.list');
    expect((await list(w.reviewer, `?business_unit_id=${w.unit.id}`)).statusCode).toBe(200);
  });

  it('a filter naming an entity or unit unknown in the enterprise (or of another enterprise) → 400 INVALID_REFERENCE', async () => {
    for (const query of [`?legal_entity_id=${randomUUID()}`, `?legal_entity_id=${w.otherEntity.id}`, `?business_unit_id=${randomUUID()}`]) {
      const response = await list(w.admin, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ code: 'INVALID_REFERENCE' });
    }
    const foreignUnit = await createBusinessUnit(ctx, w.enterprise.id, w.elsewhere.id);
    expect((await list(w.admin, `?legal_entity_id=${w.entity.id}&business_unit_id=${foreignUnit.id}`)).json()).toMatchObject({ code: 'INVALID_REFERENCE' });
  });

  it("never shows another enterprise's BRAs; bad query values → 400; super admins → 403", async () => {
    const other = await list(w.otherAdmin);
    expect(ids(other)).toHaveLength(1);
    expect(ids(other)).not.toContain(bras[0]!.id);
    for (const query of ['?status=finished', '?page=0', '?page_size=abc', '?legal_entity_id=nope']) {
      const response = await list(w.admin, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ code: 'BAD_REQUEST' });
    }
    expect((await list(w.superAdmin)).statusCode).toBe(403);
  });

  it('an assessor with no assignments sees an empty list', async () => {
    const { createUser } = await import('../support/factories.js');
    const lonely = await createUser(ctx, { role: 'assessor', enterpriseId: w.enterprise.id });
    await createLegalEntity(ctx, w.enterprise.id);
    const response = await list(lonely);
    expect(response.json()).toMatchObject({ data: [], pagination: { total: 0, total_pages: 0 } });
  });
});
