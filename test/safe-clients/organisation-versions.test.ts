import { randomUUID } from 'node:crypto';
import type { HTTPMethods } from 'fastify';
import { describe, expect, it } from 'vitest';
import { sessionHeaders } from '../support/api.js';
import { createTestContext } from '../support/app.js';
import { createBraWorld } from '../support/bras-factories.js';
import type { TestUser } from '../support/factories.js';

/**
 * If-Match on the upkeep of legal entities, business units and risk scenarios: the checks run in the order
 * 404 (another enterprise's row), 403 (a role that may not change it), 412 (a stale tag), 409 (an archived
 * row), the answers keep their documented shape (the version travels in the ETag only), and archiving an
 * entity moves its units' versions with it.
 */
describe('safe clients: versions of the organisation and the scenario catalogue', async () => {
  const ctx = await createTestContext();
  const w = await createBraWorld(ctx);
  const headersOf = sessionHeaders(ctx);
  const send = async (user: TestUser, method: HTTPMethods, url: string, headers: Record<string, string>, body?: object) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers: { ...(await headersOf(user)), ...headers }, ...(body !== undefined ? { payload: body } : {}) });

  const suffix = () => randomUUID().slice(0, 8);
  const legalEntity = async () =>
    ctx.db.insertInto('legal_entities').values({ enterprise_id: w.enterprise.id, name: `Entity ${suffix()}` }).returning('id').executeTakeFirstOrThrow();
  const businessUnit = async (legalEntityId: string) =>
    ctx.db
      .insertInto('business_units')
      .values({ enterprise_id: w.enterprise.id, legal_entity_id: legalEntityId, name: `Unit ${suffix()}` })
      .returning('id')
      .executeTakeFirstOrThrow();
  const riskScenario = async () =>
    ctx.db
      .insertInto('risk_scenarios')
      .values({ enterprise_id: w.enterprise.id, name: `Scenario ${suffix()}`, category: 'External Fraud', description: null })
      .returning('id')
      .executeTakeFirstOrThrow();

  /** Each resource: a fresh row's path, a change of it, and the members of its answer (the schema's). */
  const resources = [
    {
      name: 'legal entity',
      path: async () => `/legal-entities/${(await legalEntity()).id}`,
      change: () => ({ name: `Renamed ${suffix()}` }),
      members: ['archived_at', 'created_at', 'description', 'id', 'name'],
    },
    {
      name: 'business unit',
      path: async () => `/business-units/${(await businessUnit((await legalEntity()).id)).id}`,
      change: () => ({ name: `Renamed ${suffix()}` }),
      members: ['archived_at', 'created_at', 'description', 'id', 'legal_entity_id', 'name'],
    },
    {
      name: 'risk scenario',
      path: async () => `/risk-scenarios/${(await riskScenario()).id}`,
      change: () => ({ description: `Changed ${suffix()}` }),
      members: ['archived_at', 'category', 'created_at', 'description', 'id', 'name'],
    },
  ];

  for (const resource of resources) {
    it(`${resource.name}: another enterprise's admin gets 404 whatever the If-Match, and the row is unchanged`, async () => {
      const path = await resource.path();
      const patch = await send(w.otherAdmin, 'PATCH', path, { 'if-match': '"1"' }, resource.change());
      expect(patch.statusCode, patch.body).toBe(404);
      const archive = await send(w.otherAdmin, 'POST', `${path}/archive`, { 'if-match': '"1"' });
      expect(archive.statusCode, archive.body).toBe(404);
      const own = await send(w.admin, 'PATCH', path, { 'if-match': '"1"' }, resource.change());
      expect(own.statusCode, own.body).toBe(200);
      expect(own.headers['etag']).toBe('"2"');
    });

    it(`${resource.name}: a role that may not change it gets 403 before any If-Match check`, async () => {
      const path = await resource.path();
      const answer = await send(w.assessor, 'PATCH', path, { 'if-match': '"999"' }, resource.change());
      expect(answer.statusCode, answer.body).toBe(403);
    });

    it(`${resource.name}: once archived, a stale tag is 412 and the current one 409; answers keep their shape`, async () => {
      const path = await resource.path();
      const changed = await send(w.admin, 'PATCH', path, { 'if-match': '"1"' }, resource.change());
      expect(changed.statusCode, changed.body).toBe(200);
      expect(Object.keys(changed.json().data).sort()).toEqual(resource.members);
      expect(changed.headers['etag']).toBe('"2"');

      const archived = await send(w.admin, 'POST', `${path}/archive`, { 'if-match': '"2"' });
      expect(archived.statusCode, archived.body).toBe(200);
      expect(Object.keys(archived.json().data).sort()).toEqual(resource.members);
      expect(archived.headers['etag']).toBe('"3"');

      const stale = await send(w.admin, 'POST', `${path}/archive`, { 'if-match': '"2"' });
      expect(stale.statusCode, stale.body).toBe(412);
      expect(stale.json().details).toEqual({ current_etag: '"3"' });
      const again = await send(w.admin, 'POST', `${path}/archive`, { 'if-match': '"3"' });
      expect(again.statusCode, again.body).toBe(409);
      const change = await send(w.admin, 'PATCH', path, { 'if-match': '"3"' }, resource.change());
      expect(change.statusCode, change.body).toBe(409);
    });

    it(`${resource.name}: a change that changes nothing keeps the version and answers its ETag`, async () => {
      const path = await resource.path();
      const body = resource.change();
      expect((await send(w.admin, 'PATCH', path, { 'if-match': '"1"' }, body)).headers['etag']).toBe('"2"');
      const same = await send(w.admin, 'PATCH', path, { 'if-match': '"2"' }, body);
      expect(same.statusCode, same.body).toBe(200);
      expect(same.headers['etag']).toBe('"2"');
    });
  }

  it('of two changes sent with the same tag, one applies and the other is 412', async () => {
    const path = `/legal-entities/${(await legalEntity()).id}`;
    const answers = await Promise.all([
      send(w.admin, 'PATCH', path, { 'if-match': '"1"' }, { name: `First ${suffix()}` }),
      send(w.admin, 'PATCH', path, { 'if-match': '"1"' }, { name: `Second ${suffix()}` }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 412]);
  });

  it('archiving a legal entity archives its units, so a tag read of a unit before is stale after', async () => {
    const entity = await legalEntity();
    const unit = await businessUnit(entity.id);
    const archived = await send(w.admin, 'POST', `/legal-entities/${entity.id}/archive`, { 'if-match': '"1"' });
    expect(archived.statusCode, archived.body).toBe(200);
    const stale = await send(w.admin, 'PATCH', `/business-units/${unit.id}`, { 'if-match': '"1"' }, { name: `Renamed ${suffix()}` });
    expect(stale.statusCode, stale.body).toBe(412);
    expect(stale.json().details).toEqual({ current_etag: '"2"' });
  });
});
