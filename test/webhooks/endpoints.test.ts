import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { sessionHeaders } from '../support/api.js';
import { auditEntries, expectAccessDenied } from '../support/audit.js';
import { createBraWorld } from '../support/bras-factories.js';
import type { TestUser } from '../support/factories.js';
import { cast } from '../support/cast.js';

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

describe('webhook endpoints: the client admin registers, reads, changes and removes them', async () => {
  const ctx = await createTestContext({ env: { WEBHOOKS_ALLOW_LOOPBACK: 'true' } });
  const w = await cast(ctx);
  const headersOf = sessionHeaders(ctx);
  const { call } = w;
  const register = async (user: TestUser, body: Record<string, unknown> = {}) =>
    call(user, 'POST', '/webhooks', { url: 'https://hooks.example.com/risk', event_types: ['bra.approved'], ...body });

  it('POST answers 201 with the endpoint, enabled, and a whsec_ secret of 32 random bytes that no read shows again', async () => {
    const response = await register(w.admin, { event_types: ['bra.approved', 'risk.above_appetite'], description: 'Ticketing' });
    expect(response.statusCode, response.body).toBe(201);
    const data = response.json().data;
    expect(data).toMatchObject({
      id: expect.any(String),
      url: 'https://hooks.example.com/risk',
      event_types: ['bra.approved', 'risk.above_appetite'],
      description: 'Ticketing',
      enabled: true,
      created_at: expect.stringMatching(/Z$/),
    });
    expect(data.secret).toMatch(SECRET);
    expect(Buffer.from(data.secret.slice(6), 'base64')).toHaveLength(32);
    const again = await register(w.admin);
    expect(again.json().data.secret).not.toBe(data.secret);

    const read = await call(w.admin, 'GET', `/webhooks/${data.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).not.toHaveProperty('secret');
    expect(read.body).not.toContain(data.secret);
    const list = await call(w.admin, 'GET', '/webhooks');
    expect(list.body).not.toContain(data.secret);
  });

  it('secrets never reach the audit trail: create, rotate and delete are audited on the webhook entity without them', async () => {
    const created = (await register(w.admin)).json().data;
    const rotated = await call(w.admin, 'POST', `/webhooks/${created.id}/rotate-secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const newSecret = rotated.json().data.secret;
    expect(newSecret).toMatch(SECRET);
    expect(newSecret).not.toBe(created.secret);
    expect(await call(w.admin, 'PATCH', `/webhooks/${created.id}`, { description: 'Chat' })).toMatchObject({ statusCode: 200 });
    expect(await call(w.admin, 'DELETE', `/webhooks/${created.id}`)).toMatchObject({ statusCode: 200 });
    const entries = await auditEntries(ctx, { entityType: 'webhook', entityId: created.id });
    expect(entries.map((e) => e.action_type)).toEqual(['create', 'update', 'update', 'delete']);
    expect(entries.every((e) => e.enterprise_id === w.enterprise.id && e.user_id === w.admin.id)).toBe(true);
    expect(entries[0]!.action_details).toMatchObject({ operation: 'webhooks.create', url: created.url, event_types: ['bra.approved'] });
    expect(entries[1]!.action_details).toMatchObject({ operation: 'webhooks.rotate_secret', secret_rotated: true });
    expect(entries[2]!.action_details).toMatchObject({ changes: { description: { from: null, to: 'Chat' } } });
    const text = JSON.stringify(entries);
    expect(text).not.toContain(created.secret.slice(6));
    expect(text).not.toContain(newSecret.slice(6));
  });

  it('lists the enterprise’s endpoints newest first, paginated', async () => {
    const world = await createBraWorld(ctx);
    const ids = [];
    for (let i = 0; i < 3; i += 1) ids.push((await register(world.admin)).json().data.id);
    const page = await call(world.admin, 'GET', '/webhooks?page=1&page_size=2');
    expect(page.json().data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
    expect(page.json().pagination).toMatchObject({ total: 3, total_pages: 2, has_next: true, page_size: 2 });
    const second = await call(world.admin, 'GET', '/webhooks?page=2&page_size=2');
    expect(second.json().data.map((e: { id: string }) => e.id)).toEqual([ids[0]]);
  });

  it('PATCH changes url, event types, description and enabled; an unchanged body writes no entry', async () => {
    const created = (await register(w.admin)).json().data;
    const response = await call(w.admin, 'PATCH', `/webhooks/${created.id}`, {
      url: 'https://other.example.com/in',
      event_types: ['mitigation_action.overdue'],
      enabled: false,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ url: 'https://other.example.com/in', event_types: ['mitigation_action.overdue'], enabled: false });
    const before = (await auditEntries(ctx, { entityId: created.id })).length;
    expect((await call(w.admin, 'PATCH', `/webhooks/${created.id}`, { enabled: false })).statusCode).toBe(200);
    expect(await auditEntries(ctx, { entityId: created.id })).toHaveLength(before);
  });

  it('refuses bad bodies with 422: no event type, an unknown or the test type, an unknown field, a non-https URL', async () => {
    for (const body of [
      { event_types: [] },
      { event_types: ['bra.deleted'] },
      { event_types: ['webhook.test'] },
      { event_types: ['bra.approved', 'bra.approved'] },
      { secret: 'whsec_mine' },
      { url: 'http://hooks.example.com/in' },
      { url: 'hooks.example.com' },
    ]) {
      const response = await register(w.admin, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json().code).toBe('VALIDATION_ERROR');
    }
    const created = (await register(w.admin)).json().data;
    expect((await call(w.admin, 'PATCH', `/webhooks/${created.id}`, { url: 'https://10.0.0.1/in' })).statusCode).toBe(422);
  });

  it('D5: only the client admin; super admins, assessors and reviewers get 403 with an access_denied entry', async () => {
    const created = (await register(w.admin)).json().data;
    for (const user of [w.superAdmin, w.assessor, w.reviewer]) {
      await expectAccessDenied(ctx, user, await register(user), 'webhooks.create');
      await expectAccessDenied(ctx, user, await call(user, 'GET', '/webhooks'), 'webhooks.list');
      await expectAccessDenied(ctx, user, await call(user, 'GET', `/webhooks/${created.id}`));
      await expectAccessDenied(ctx, user, await call(user, 'PATCH', `/webhooks/${created.id}`, { enabled: false }));
      await expectAccessDenied(ctx, user, await call(user, 'DELETE', `/webhooks/${created.id}`));
      await expectAccessDenied(ctx, user, await call(user, 'POST', `/webhooks/${created.id}/rotate-secret`));
      await expectAccessDenied(ctx, user, await call(user, 'POST', `/webhooks/${created.id}/test`));
      await expectAccessDenied(ctx, user, await call(user, 'GET', `/webhooks/${created.id}/deliveries`));
      await expectAccessDenied(ctx, user, await call(user, 'POST', `/webhooks/${created.id}/deliveries/${randomUUID()}/retry`));
    }
    expect((await call(w.admin, 'GET', `/webhooks/${created.id}`)).json().data.enabled).toBe(true);
  });

  it('another enterprise’s endpoint is 404 on every route, and its list holds none of ours', async () => {
    const created = (await register(w.admin)).json().data;
    const test = await call(w.admin, 'POST', `/webhooks/${created.id}/test`);
    expect(test.statusCode, test.body).toBe(201);
    const deliveryId = test.json().data.id;
    const other = w.otherAdmin;
    for (const [method, url, payload] of [
      ['GET', `/webhooks/${created.id}`],
      ['PATCH', `/webhooks/${created.id}`, { enabled: false }],
      ['DELETE', `/webhooks/${created.id}`],
      ['POST', `/webhooks/${created.id}/rotate-secret`],
      ['POST', `/webhooks/${created.id}/test`],
      ['GET', `/webhooks/${created.id}/deliveries`],
      ['POST', `/webhooks/${created.id}/deliveries/${deliveryId}/retry`],
    ] as const) {
      const response = await call(other, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().code).toBe('NOT_FOUND');
    }
    const theirs = await call(other, 'GET', '/webhooks');
    expect(theirs.json().data.map((e: { id: string }) => e.id)).not.toContain(created.id);
    // Still there, unchanged, with its delivery.
    expect((await call(w.admin, 'GET', `/webhooks/${created.id}`)).json().data.enabled).toBe(true);
    expect((await call(w.admin, 'GET', `/webhooks/${created.id}/deliveries`)).json().data).toHaveLength(1);
  });

  it('a delivery of another endpoint of the same enterprise is 404 under this one', async () => {
    const a = (await register(w.admin)).json().data;
    const b = (await register(w.admin)).json().data;
    const delivery = (await call(w.admin, 'POST', `/webhooks/${a.id}/test`)).json().data;
    expect((await call(w.admin, 'POST', `/webhooks/${b.id}/deliveries/${delivery.id}/retry`)).statusCode).toBe(404);
  });

  it('deleting an endpoint removes its deliveries; the test event is a pending webhook.test delivery', async () => {
    const created = (await register(w.admin)).json().data;
    const test = (await call(w.admin, 'POST', `/webhooks/${created.id}/test`)).json().data;
    expect(test).toMatchObject({ event_type: 'webhook.test', status: 'pending', attempt_count: 0, last_status_code: null, delivered_at: null });
    expect(test.next_attempt_at).toEqual(expect.stringMatching(/Z$/));
    expect((await call(w.admin, 'DELETE', `/webhooks/${created.id}`)).json()).toEqual({ message: 'Webhook deleted' });
    expect((await call(w.admin, 'GET', `/webhooks/${created.id}`)).statusCode).toBe(404);
    const left = await ctx.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', created.id).execute();
    expect(left).toEqual([]);
  });
});

describe('webhook URLs without WEBHOOKS_ALLOW_LOOPBACK: https to public addresses only (SSRF)', async () => {
  const ctx = await createTestContext();
  const w = await createBraWorld(ctx);
  const headersOf = sessionHeaders(ctx);

  it.each([
    'https://10.0.0.5/hooks',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/hooks',
    'http://[::1]:8080/hooks',
    'https://127.0.0.1/hooks',
    'https://localhost/hooks',
    'https://192.168.1.20/hooks',
    'https://[fd00::1]/hooks',
    'http://hooks.example.com/hooks',
  ])('refuses %s at registration with 422 on url', async (url) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: await headersOf(w.admin),
      payload: { url, event_types: ['bra.approved'] },
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().details.fields[0].field).toBe('url');
  });
});
