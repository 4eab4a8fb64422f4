import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { calls } from '../support/cast.js';
import { createEnterprise, createLegalEntity, createUser, tokenFor } from '../support/factories.js';

/**
 * Never a 500 from input: values PostgreSQL would refuse (a NUL character, a number no column holds)
 * are refused at the edge with the contract's 4xx, and raise no alert.
 */
describe('input that used to yield a 500', async () => {
  const ctx = await createTestContext({
    extend: (app) => {
      // A body with a number member: no module route has one yet.
      app.post(
        '/api/v1/probe/numbers',
        { config: { public: true, operation: 'probe.numbers' }, schema: { body: Type.Object({ amount: Type.Number() }, { additionalProperties: false }) } },
        async (request) => request.body,
      );
    },
  });
  const { call } = calls(ctx);
  const admin = await createUser(ctx, { role: 'admin' });
  const superAdmin = await createUser(ctx, { role: 'super_admin' });
  const token = await tokenFor(ctx, admin);
  const superToken = await tokenFor(ctx, superAdmin);

  async function expectNoAlerts() {
    await ctx.monitor.flush();
    const alerts = await ctx.db.selectFrom('system_alerts').select(['type', 'cause']).execute();
    expect(alerts).toEqual([]);
  }

  it('a NUL character in a body string is 422 VALIDATION_ERROR naming the field, on /api/v1', async () => {
    const response = await call(token, 'POST', '/admin/legal-entities', { name: 'North\u0000Bank' });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ field: 'name' }] } });
    const nested = await call(token, 'POST', '/admin/legal-entities', { name: 'Fine', description: 'a\u0000b' });
    expect(nested.json().details.fields[0].field).toBe('description');
    await expectNoAlerts();
  });

  it('a NUL character in a member name is 422 too', async () => {
    const response = await call(token, 'POST', '/admin/legal-entities', { name: 'Fine', ['x\u0000']: 1 });
    expect(response.statusCode, response.body).toBe(422);
  });

  it('a NUL character in the query string or path is 400 BAD_REQUEST (a malformed parameter, D2.2)', async () => {
    for (const url of ['/admin/enterprises?search=a%00b', '/admin/enterprises?status=%00', '/admin/enterprises/%00']) {
      const response = await call(superToken, 'GET', url);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(400);
      expect(response.json().code).toBe('BAD_REQUEST');
    }
    await expectNoAlerts();
  });

  it('a NUL character in the provider\'s body is 400 invalid_request, even unauthenticated on /auth/v1/token', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      headers: { apikey: ctx.secrets.anonKey },
      payload: { email: 'someone\u0000@example.test', password: 'whatever it is' },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_request', error_code: 'validation_failed' });
    await expectNoAlerts();
  });

  it('page=1e400, Infinity or a number beyond 2^53 is 400, not a 500 from the OFFSET', async () => {
    for (const page of ['1e400', 'Infinity', '1e20']) {
      const response = await call(superToken, 'GET', `/admin/enterprises?page=${page}`);
      expect(response.statusCode, `page=${page}: ${response.body}`).toBe(400);
      expect(response.json()).toMatchObject({ code: 'BAD_REQUEST', details: { fields: [{ field: 'page' }] } });
    }
    const size = await call(superToken, 'GET', '/admin/enterprises?page_size=1e400');
    expect(size.statusCode).toBe(400);
    expect((await call(superToken, 'GET', '/admin/enterprises?page=2&page_size=1000')).statusCode).toBe(200);
    await expectNoAlerts();
  });

  it('a body number that parses to Infinity (1e400), or an integer beyond 2^53, is 422 naming the field', async () => {
    for (const value of ['1e400', '-1e400', '1e20']) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/probe/numbers',
        headers: { 'content-type': 'application/json' },
        payload: `{"amount":${value}}`,
      });
      expect(response.statusCode, `${value}: ${response.body}`).toBe(422);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ field: 'amount' }] } });
    }
    const fine = await ctx.app.inject({ method: 'POST', url: '/api/v1/probe/numbers', payload: { amount: 12.5 } });
    expect(fine.statusCode).toBe(200);
  });
});

/** Names are compared for uniqueness after NFKC, zero-width removal, whitespace collapsing and case folding. */
describe('look-alike names are one name (name_key)', async () => {
  const ctx = await createTestContext();
  const { call } = calls(ctx);
  const admin = await createUser(ctx, { role: 'admin' });
  const superAdmin = await createUser(ctx, { role: 'super_admin' });
  const token = await tokenFor(ctx, admin);
  const superToken = await tokenFor(ctx, superAdmin);
  const LOOK_ALIKES = [
    'ＮＯＲＴＨ ＢＡＮＫ', // full-width letters (NFKC)
    'North\u00a0Bank', // no-break space
    'North \t  Bank', // runs of whitespace
    'North\u200bBank'.replace('\u200b', ' \u200b'), // zero-width space
    'north\u3000bank', // ideographic space
  ];

  it('legal entities: each look-alike of an existing name is 409 CONFLICT', async () => {
    expect((await call(token, 'POST', '/admin/legal-entities', { name: 'North Bank' })).statusCode).toBe(201);
    for (const name of LOOK_ALIKES) {
      const response = await call(token, 'POST', '/admin/legal-entities', { name });
      expect(response.statusCode, `${JSON.stringify(name)}: ${response.body}`).toBe(409);
      expect(response.json().code).toBe('CONFLICT');
    }
    expect((await call(token, 'POST', '/admin/legal-entities', { name: 'North Banks' })).statusCode).toBe(201);
  });

  it('business units, risk scenarios and enterprises likewise', async () => {
    const entity = await createLegalEntity(ctx, admin.enterpriseId!, 'Unit holder');
    const unitsUrl = `/admin/legal-entities/${entity.id}/business-units`;
    expect((await call(token, 'POST', unitsUrl, { name: 'Retail Banking' })).statusCode).toBe(201);
    expect((await call(token, 'POST', unitsUrl, { name: 'ＲＥＴＡＩＬ  banking' })).statusCode).toBe(409);

    const scenario = { name: 'Card Fraud', category: 'External fraud' };
    expect((await call(token, 'POST', '/risk-scenarios', scenario)).statusCode).toBe(201);
    expect((await call(token, 'POST', '/risk-scenarios', { ...scenario, name: 'card\u00a0fraud' })).statusCode).toBe(409);

    expect((await call(superToken, 'POST', '/admin/enterprises', { name: 'Harbour Group', country: 'GB' })).statusCode).toBe(201);
    expect((await call(superToken, 'POST', '/admin/enterprises', { name: 'Ｈａｒｂｏｕｒ Group', country: 'GB' })).statusCode).toBe(409);
  });

  it('BRAs: bras_name_key uses the same normalisation', async () => {
    const enterprise = await createEnterprise(ctx);
    const entity = await createLegalEntity(ctx, enterprise.id);
    const row = (name: string) => ({ enterprise_id: enterprise.id, legal_entity_id: entity.id, name, period: '2026', assessor: 'A. Assessor' });
    const insert = (name: string) => ctx.db.insertInto('bras').values(row(name) as never).execute();
    await insert('Annual assessment 2026');
    await expect(insert('ANNUAL\u00a0assessment  2026')).rejects.toMatchObject({ code: '23505', constraint: 'bras_name_key' });
  });
});
