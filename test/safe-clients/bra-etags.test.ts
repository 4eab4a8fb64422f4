import { describe, expect, it } from 'vitest';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { addScenarioLink, createBra, createBraWorld, createRiskScenario, createSubControl } from '../support/bras-factories.js';
import { cast } from '../support/cast.js';

/** Conditional requests on a BRA: ETag, If-None-Match → 304, If-Match → 412, the lost update refused. */
describe('safe clients: a BRA\'s ETag and the lost update', async () => {
  const ctx = await createTestContext();
  const w = await cast(ctx);
  const headersOf = sessionHeaders(ctx);
  const { call } = w;
  const newBra = () => createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.assessor.id });
  const auditOf = async (braId: string) =>
    Number((await ctx.db.selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n')).where('entity_id', '=', braId).executeTakeFirstOrThrow()).n);
  const etagOf = async (braId: string) => {
    const response = await call(w.admin, 'GET', `/bras/${braId}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.headers['etag'] as string;
  };

  it('two clients read one BRA and both PATCH with their ETag: one 200, one 412, the stored name is the winner\'s', async () => {
    const bra = await newBra();
    const [first, second] = await Promise.all([etagOf(bra.id), etagOf(bra.id)]);
    expect(first).toMatch(/^"\d+\.[A-Za-z0-9_-]+"$/);
    expect(second).toBe(first);
    const auditBefore = await auditOf(bra.id);
    // Sent together: the comparison runs under the BRA's row lock, so the race has one winner.
    const answers = await Promise.all([
      call(w.admin, 'PATCH', `/bras/${bra.id}`, { name: `${bra.name} by Ana` }, { 'if-match': first }),
      call(w.assessor, 'PATCH', `/bras/${bra.id}`, { name: `${bra.name} by Ben` }, { 'if-match': second }),
    ]);
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 412]);
    const winner = answers.find((answer) => answer.statusCode === 200)!;
    const loser = answers.find((answer) => answer.statusCode === 412)!;
    const stored = await ctx.db.selectFrom('bras').select('name').where('id', '=', bra.id).executeTakeFirstOrThrow();
    expect(stored.name).toBe(winner.json().data.name);
    expect(loser.json()).toMatchObject({ code: 'PRECONDITION_FAILED', request_id: expect.any(String), details: { current_etag: winner.headers['etag'] } });
    // One change, one audit entry: the refused one wrote nothing.
    expect(await auditOf(bra.id)).toBe(auditBefore + 1);
  });

  it('the PATCH answer carries the new ETag, which the next If-Match may name', async () => {
    const bra = await newBra();
    const first = await call(w.admin, 'PATCH', `/bras/${bra.id}`, { period: 'FY2027' }, { 'if-match': await etagOf(bra.id) });
    expect(first.statusCode, first.body).toBe(200);
    const next = await call(w.admin, 'PATCH', `/bras/${bra.id}`, { period: 'FY2028' }, { 'if-match': first.headers['etag'] as string });
    expect(next.statusCode, next.body).toBe(200);
    const stale = await call(w.admin, 'PATCH', `/bras/${bra.id}`, { period: 'FY2029' }, { 'if-match': first.headers['etag'] as string });
    expect(stale.statusCode).toBe(412);
  });

  it('If-None-Match with the current ETag answers 304 without a body; after a change, 200 with a new ETag', async () => {
    const bra = await newBra();
    const etag = await etagOf(bra.id);
    const unchanged = await call(w.admin, 'GET', `/bras/${bra.id}`, undefined, { 'if-none-match': etag });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
    expect(unchanged.headers['etag']).toBe(etag);
    await call(w.admin, 'PATCH', `/bras/${bra.id}`, { assessor: 'Someone Else' }, {});
    const changed = await call(w.admin, 'GET', `/bras/${bra.id}`, undefined, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers['etag']).not.toBe(etag);
  });

  it('a BRA\'s ETag changes when a scenario, a rating or a control link is added', async () => {
    const bra = await newBra();
    const before = await etagOf(bra.id);
    const scenario = await createRiskScenario(ctx, w.enterprise.id);
    const added = await call(w.admin, 'POST', `/bras/${bra.id}/scenarios`, { risk_scenario_id: scenario.id }, {});
    expect(added.statusCode, added.body).toBe(201);
    const afterScenario = await etagOf(bra.id);
    expect(afterScenario).not.toBe(before);
    const rated = await call(w.admin, 'POST', `/bras/${bra.id}/ratings`, {
      bra_risk_scenario_id: added.json().data.id,
      rating_type: 'inherent',
      impact_score: 4,
      likelihood_score: 3,
    }, {});
    expect(rated.statusCode, rated.body).toBe(201);
    const afterRating = await etagOf(bra.id);
    expect(afterRating).not.toBe(afterScenario);
    const { subControl } = await createSubControl(ctx, w.enterprise.id);
    const linked = await call(w.admin, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: subControl.id }, {});
    expect(linked.statusCode, linked.body).toBe(201);
    const afterLink = await etagOf(bra.id);
    expect(afterLink).not.toBe(afterRating);
    // The stale ETag of before the rating no longer allows a change.
    const stale = await call(w.admin, 'PATCH', `/bras/${bra.id}`, { period: 'FY2030' }, { 'if-match': afterScenario });
    expect(stale.statusCode).toBe(412);
  });

  it('a scenario link change and the state actions take the BRA\'s ETag and answer its new one', async () => {
    const bra = await newBra();
    const link = await addScenarioLink(ctx, bra);
    const etag = await etagOf(bra.id);
    const excluded = await call(w.admin, 'PATCH', `/bras/${bra.id}/scenarios/${link.id}`, { included: false }, { 'if-match': etag });
    expect(excluded.statusCode, excluded.body).toBe(200);
    const stale = await call(w.admin, 'POST', `/bras/${bra.id}/cancel`, {}, { 'if-match': etag });
    expect(stale.statusCode).toBe(412);
    expect((await ctx.db.selectFrom('bras').select('status').where('id', '=', bra.id).executeTakeFirstOrThrow()).status).toBe('in_progress');
    expect(excluded.headers['etag']).toBe(await etagOf(bra.id));
    const cancelled = await call(w.admin, 'POST', `/bras/${bra.id}/cancel`, {}, { 'if-match': excluded.headers['etag'] as string });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.headers['etag']).toBe(await etagOf(bra.id));
  });

  it('one state, one tag: a change answers the tag the next read answers, and a 412 names that same tag', async () => {
    const bra = await newBra();
    const changed = await call(w.admin, 'PATCH', `/bras/${bra.id}`, { period: 'FY2031' }, { 'if-match': await etagOf(bra.id) });
    expect(changed.statusCode, changed.body).toBe(200);
    const tag = changed.headers['etag'] as string;
    expect(tag).toMatch(/^"\d+\.[A-Za-z0-9_-]{22}"$/);
    // The client that keeps the tag of its own change earns a 304 on its next read.
    const reread = await call(w.admin, 'GET', `/bras/${bra.id}`, undefined, { 'if-none-match': tag });
    expect(reread.statusCode).toBe(304);
    expect(reread.headers['etag']).toBe(tag);
    const unchanged = await call(w.admin, 'PATCH', `/bras/${bra.id}`, { period: 'FY2031' }, { 'if-match': tag });
    expect(unchanged.headers['etag']).toBe(tag);
    const stale = await call(w.admin, 'PATCH', `/bras/${bra.id}`, { period: 'FY2032' }, { 'if-match': '"1"' });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().details.current_etag).toBe(tag);
    const link = await addScenarioLink(ctx, bra);
    const afterLink = await etagOf(bra.id);
    const unlinked = await call(w.admin, 'PATCH', `/bras/${bra.id}/scenarios/${link.id}`, { included: false }, { 'if-match': afterLink });
    expect(unlinked.headers['etag']).toBe(await etagOf(bra.id));
  });

  it('a BRA whose answer changes without its version (an approved BRA\'s breaches under a new appetite) changes its tag; If-Match with the old one is 412', async () => {
    const bra = await newBra();
    const link = await addScenarioLink(ctx, bra);
    for (const rating_type of ['inherent', 'residual']) {
      const rated = await call(w.admin, 'POST', `/bras/${bra.id}/ratings`, { bra_risk_scenario_id: link.id, rating_type, impact_score: 3, likelihood_score: 3 }, {});
      expect(rated.statusCode, rated.body).toBe(201);
    }
    expect((await call(w.admin, 'POST', `/bras/${bra.id}/approve`, {}, {})).statusCode).toBe(200);
    const approved = await call(w.admin, 'GET', `/bras/${bra.id}`);
    const tag = approved.headers['etag'] as string;
    expect(approved.json().data.current_appetite_breaches).toEqual([]);
    const lowered = await call(w.admin, 'POST', '/governance/risk-appetite', { risk_level: 'Low', threshold_value: 4, reason: 'Tighter' }, {});
    expect(lowered.statusCode, lowered.body).toBeLessThan(300);
    const after = await call(w.admin, 'GET', `/bras/${bra.id}`, undefined, { 'if-none-match': tag });
    expect(after.statusCode).toBe(200);
    expect(after.json().data.current_appetite_breaches).toHaveLength(1);
    const newTag = after.headers['etag'] as string;
    expect(newTag).not.toBe(tag);
    expect(newTag.split('.')[0]).toBe(tag.split('.')[0]);
    // If-Match comes before the state's own refusal (D10.1): the old tag is 412 with the new one, the new one 409.
    const stale = await call(w.admin, 'PATCH', `/bras/${bra.id}`, { period: 'FY2027' }, { 'if-match': tag });
    expect([stale.statusCode, stale.json().details?.current_etag]).toEqual([412, newTag]);
    expect((await call(w.admin, 'PATCH', `/bras/${bra.id}`, { period: 'FY2027' }, { 'if-match': newTag })).statusCode).toBe(409);
  });

  it('If-Match: * matches any version; a weak tag never matches (strong comparison)', async () => {
    const bra = await newBra();
    const etag = await etagOf(bra.id);
    const weak = await call(w.admin, 'PATCH', `/bras/${bra.id}`, { period: 'Q1' }, { 'if-match': `W/${etag}` });
    expect(weak.statusCode).toBe(412);
    const any = await call(w.admin, 'PATCH', `/bras/${bra.id}`, { period: 'Q2' }, { 'if-match': '*' });
    expect(any.statusCode, any.body).toBe(200);
  });

  it('another enterprise\'s BRA is 404 with or without If-Match, never 412', async () => {
    const bra = await newBra();
    const etag = await etagOf(bra.id);
    const stranger = await call(w.otherAdmin, 'PATCH', `/bras/${bra.id}`, { period: 'X' }, { 'if-match': '"999"' });
    expect(stranger.statusCode).toBe(404);
    const read = await call(w.otherAdmin, 'GET', `/bras/${bra.id}`, undefined, { 'if-none-match': etag });
    expect(read.statusCode).toBe(404);
  });

  it('a read never answers 304 for a stale copy: a linked sub-control\'s new test result changes the BRA\'s ETag', async () => {
    const bra = await newBra();
    const { subControl } = await createSubControl(ctx, w.enterprise.id);
    expect((await call(w.admin, 'POST', `/bras/${bra.id}/controls`, { sub_control_id: subControl.id }, {})).statusCode).toBe(201);
    const etag = await etagOf(bra.id);
    const tested = await call(w.admin, 'PATCH', `/controls/sub-controls/${subControl.id}`, { tod: 'A', toe: '1' }, {});
    expect(tested.statusCode, tested.body).toBe(200);
    const read = await call(w.admin, 'GET', `/bras/${bra.id}`, undefined, { 'if-none-match': etag });
    expect(read.statusCode).toBe(200);
    expect(read.json().data.controls[0].total_effectiveness).toBe('Highly Effective');
    // Its own version did not move, but what a read shows did: the older tag no longer names its state.
    expect(read.headers['etag']!.toString().split('.')[0]).toBe(etag.split('.')[0]);
    const stale = await call(w.admin, 'PATCH', `/bras/${bra.id}`, { period: 'FY2040' }, { 'if-match': etag });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().details.current_etag).toBe(read.headers['etag']);
  });

  it('a snapshot and /me answer an ETag and 304 too', async () => {
    const created = await call(w.admin, 'POST', '/bras', { name: `BRA ${Date.now()}`, legal_entity_id: w.entity.id, period: 'FY2026', assessor: 'A' }, {});
    expect(created.statusCode).toBe(201);
    const snapshots = await call(w.admin, 'GET', `/bras/${created.json().data.id}/snapshots`);
    const url = `/bras/${created.json().data.id}/snapshots/${snapshots.json().data[0].id}`;
    for (const path of [url, '/me']) {
      const first = await call(w.admin, 'GET', path);
      expect(first.headers['etag'], path).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await call(w.admin, 'GET', path, undefined, { 'if-none-match': first.headers['etag'] as string });
      expect(again.statusCode, path).toBe(304);
    }
  });

  it('a list answer carries no ETag', async () => {
    const response = await call(w.admin, 'GET', '/bras');
    expect(response.statusCode).toBe(200);
    expect(response.headers['etag']).toBeUndefined();
  });
});

describe('safe clients: REQUIRE_IF_MATCH=true', async () => {
  const ctx = await createTestContext({ env: { REQUIRE_IF_MATCH: 'true' } });
  const w = await createBraWorld(ctx);
  const headersOf = sessionHeaders(ctx);

  it('a PATCH or a state action without If-Match is 428 PRECONDITION_REQUIRED and changes nothing; with it, 200', async () => {
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id });
    const headers = await headersOf(w.admin);
    const bare = await ctx.app.inject({ method: 'PATCH', url: `/api/v1/bras/${bra.id}`, headers, payload: { period: 'FY2031' } });
    expect(bare.statusCode).toBe(428);
    expect(bare.json()).toMatchObject({ code: 'PRECONDITION_REQUIRED' });
    const cancel = await ctx.app.inject({ method: 'POST', url: `/api/v1/bras/${bra.id}/cancel`, headers, payload: {} });
    expect(cancel.statusCode).toBe(428);
    const stored = await ctx.db.selectFrom('bras').select(['period', 'status']).where('id', '=', bra.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ period: 'FY2026', status: 'draft' });
    const read = await ctx.app.inject({ method: 'GET', url: `/api/v1/bras/${bra.id}`, headers });
    const done = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/v1/bras/${bra.id}`,
      headers: { ...headers, 'if-match': read.headers['etag'] as string },
      payload: { period: 'FY2031' },
    });
    expect(done.statusCode, done.body).toBe(200);
  });
});
