import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { sweepIdempotencyKeys } from '../../src/platform/idempotency/idempotency-sweep.js';
import { insertAction } from '../support/actions-factories.js';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { createBraWorld } from '../support/bras-factories.js';
import type { TestUser } from '../support/factories.js';

/** Idempotency-Key on creating POSTs and bulk update: one change per key, the first answer replayed. */
describe('safe clients: Idempotency-Key', async () => {
  const ctx = await createTestContext();
  const w = await createBraWorld(ctx);
  const headersOf = sessionHeaders(ctx);
  const post = async (user: TestUser, url: string, payload: unknown, key?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/v1${url}`,
      headers: { ...(await headersOf(user)), ...(key !== undefined ? { 'idempotency-key': key } : {}) },
      payload: payload as object,
    });
  const braBody = (name = `BRA ${randomUUID().slice(0, 8)}`) => ({ name, legal_entity_id: w.entity.id, period: 'FY2026', assessor: 'Marcus Reid' });
  const brasNamed = async (name: string) =>
    Number((await ctx.db.selectFrom('bras').select((eb) => eb.fn.countAll().as('n')).where('name', '=', name).executeTakeFirstOrThrow()).n);

  it('a retry with the same key replays the first answer byte for byte, with Idempotent-Replayed, and creates one row', async () => {
    const key = randomUUID();
    const body = braBody();
    const first = await post(w.admin, '/bras', body, key);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await post(w.admin, '/bras', body, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.body).toBe(first.body);
    expect(again.json().data.id).toBe(first.json().data.id);
    expect(await brasNamed(body.name)).toBe(1);
  });

  it('the answer is stored with the change, per caller and key, for 24 hours', async () => {
    const key = randomUUID();
    const created = await post(w.admin, '/bras', braBody(), key);
    expect(created.statusCode).toBe(201);
    const stored = await ctx.db
      .selectFrom('idempotency_keys')
      .select(['user_id', 'response_status', 'response_body', sql<number>`extract(epoch from expires_at - created_at)`.as('ttl')])
      .where('idempotency_key', '=', key)
      .execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ user_id: w.admin.id, response_status: 201, response_body: created.body });
    expect(Math.round(Number(stored[0]!.ttl) / 3600)).toBe(24);
  });

  it('the same key with a different body is 422 IDEMPOTENCY_KEY_REUSED and creates nothing', async () => {
    const key = randomUUID();
    expect((await post(w.admin, '/bras', braBody(), key)).statusCode).toBe(201);
    const other = braBody();
    const reused = await post(w.admin, '/bras', other, key);
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', request_id: expect.any(String) });
    expect(await brasNamed(other.name)).toBe(0);
  });

  it('eight concurrent requests with one key create one row; the others replay it or answer 409 IDEMPOTENCY_IN_PROGRESS', async () => {
    const key = randomUUID();
    const body = braBody();
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(w.admin, '/bras', body, key)));
    expect(await brasNamed(body.name)).toBe(1);
    const created = answers.filter((answer) => answer.statusCode === 201);
    const busy = answers.filter((answer) => answer.statusCode === 409);
    expect(created.length + busy.length).toBe(8);
    expect(created.filter((answer) => answer.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(new Set(created.map((answer) => answer.json().data.id)).size).toBe(1);
    for (const answer of busy) expect(answer.json().code).toBe('IDEMPOTENCY_IN_PROGRESS');
  });

  it('while a request with the key runs, another with it is 409 IDEMPOTENCY_IN_PROGRESS', async () => {
    const key = randomUUID();
    const body = braBody();
    // The key's lock, held as a running first request holds it.
    await ctx.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${w.admin.id}), hashtext(${key}))`.execute(trx);
      const second = await post(w.admin, '/bras', body, key);
      expect(second.statusCode).toBe(409);
      expect(second.json().code).toBe('IDEMPOTENCY_IN_PROGRESS');
    });
    expect(await brasNamed(body.name)).toBe(0);
    expect((await post(w.admin, '/bras', body, key)).statusCode).toBe(201);
  });

  it('an expired key creates anew, and the sweep deletes expired answers', async () => {
    const key = randomUUID();
    const body = braBody();
    const first = await post(w.admin, '/bras', body, key);
    expect(first.statusCode).toBe(201);
    await ctx.db.updateTable('idempotency_keys').set({ expires_at: new Date(Date.now() - 1000) }).where('idempotency_key', '=', key).execute();
    // Past its expiry the key is free: the new request runs (not a replay) and creates its own BRA.
    const renamed = { ...body, name: `${body.name} again` };
    const anew = await post(w.admin, '/bras', renamed, key);
    expect(anew.statusCode, anew.body).toBe(201);
    expect(anew.headers['idempotent-replayed']).toBeUndefined();
    expect(anew.json().data.id).not.toBe(first.json().data.id);

    const old = randomUUID();
    expect((await post(w.admin, '/bras', braBody(), old)).statusCode).toBe(201);
    await ctx.db.updateTable('idempotency_keys').set({ expires_at: new Date(Date.now() - 1000) }).where('idempotency_key', '=', old).execute();
    expect(await sweepIdempotencyKeys(ctx.database.db)).toBeGreaterThanOrEqual(1);
    const left = await ctx.db.selectFrom('idempotency_keys').select('idempotency_key').where('idempotency_key', 'in', [key, old]).execute();
    expect(left.map((row) => row.idempotency_key)).toEqual([key]);
  });

  it('a key over 255 characters is 400; 255 is accepted', async () => {
    const tooLong = await post(w.admin, '/bras', braBody(), 'k'.repeat(256));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().code).toBe('BAD_REQUEST');
    expect((await post(w.admin, '/bras', braBody(), 'k'.repeat(255))).statusCode).toBe(201);
  });

  it('a refused request stores nothing: the key stays free for the corrected request', async () => {
    const key = randomUUID();
    const refused = await post(w.admin, '/bras', { ...braBody(), legal_entity_id: w.otherEntity.id }, key);
    expect(refused.statusCode).toBe(400);
    const corrected = await post(w.admin, '/bras', braBody(), key);
    expect(corrected.statusCode, corrected.body).toBe(201);
    expect(corrected.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a 403 with a key is answered and audited as any refusal, and stores nothing', async () => {
    const key = randomUUID();
    const refused = await post(w.outsideAssessor, '/bras', braBody(), key);
    expect(refused.statusCode).toBe(403);
    const denied = await ctx.db.selectFrom('audit_log').select('action_type').where('user_id', '=', w.outsideAssessor.id).where('action_type', '=', 'access_denied').execute();
    expect(denied.length).toBeGreaterThan(0);
    expect(await ctx.db.selectFrom('idempotency_keys').select('idempotency_key').where('idempotency_key', '=', key).execute()).toEqual([]);
  });

  it('keys are per caller: another user, of this or another enterprise, with the same key acts on its own', async () => {
    const key = randomUUID();
    const mine = await post(w.admin, '/bras', braBody(), key);
    expect(mine.statusCode).toBe(201);
    const colleague = await post(w.assessor, '/bras', braBody(), key);
    expect(colleague.statusCode, colleague.body).toBe(201);
    expect(colleague.headers['idempotent-replayed']).toBeUndefined();
    const stranger = await post(w.otherAdmin, '/bras', { ...braBody(), legal_entity_id: w.otherEntity.id }, key);
    expect(stranger.statusCode, stranger.body).toBe(201);
    expect(stranger.headers['idempotent-replayed']).toBeUndefined();
    expect(stranger.json().data.id).not.toBe(mine.json().data.id);
  });

  it('bulk update with a key changes once: the replay writes no second audit entry', async () => {
    const actions = await Promise.all([1, 2].map(() => insertAction(ctx, { enterpriseId: w.enterprise.id })));
    const ids = actions.map((action) => action.id);
    const key = randomUUID();
    const payload = { action_ids: ids, updates: { status: 'in_progress' } };
    const first = await post(w.admin, '/mitigation-actions/bulk-update', payload, key);
    expect(first.statusCode, first.body).toBe(200);
    const entries = async () =>
      Number((await ctx.db.selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n')).where('entity_id', 'in', ids).executeTakeFirstOrThrow()).n);
    const after = await entries();
    const again = await post(w.admin, '/mitigation-actions/bulk-update', payload, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await entries()).toBe(after);
  });

  it('without a key a creating POST acts every time, as before', async () => {
    const body = braBody();
    expect((await post(w.admin, '/bras', body)).statusCode).toBe(201);
    expect((await post(w.admin, '/bras', body)).statusCode).toBe(409);
  });
});
