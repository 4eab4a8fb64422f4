import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { createEnterprise, createUser, tokenFor } from '../support/factories.js';
import { calls } from '../support/cast.js';

/**
 * Issue 44.6: a string's bound holds for what is stored (trimmed, counted in characters), wherever the string
 * arrives; bytes that are not UTF-8 are a malformed body, as a lone surrogate is refused.
 */
describe('small input rules: lengths of what is stored, bodies that are not UTF-8 (issue 44.6)', async () => {
  const ctx = await createTestContext();
  const enterprise = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const token = await tokenFor(ctx, admin);
  const { call } = calls(ctx);
  const issued = (await call(token, 'POST', '/scim/tokens', { name: 'Entra ID' })).json().data;
  const scim = (method: string, url: string, payload: unknown) =>
    ctx.app.inject({ method: method as 'POST', url: `/scim/v2${url}`, headers: { authorization: `Bearer ${issued.token}`, 'content-type': 'application/scim+json' }, payload: JSON.stringify(payload) });
  const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

  it('/api/v1: a name of 200 characters padded with spaces is stored trimmed; 201 characters after trimming is 422 naming it', async () => {
    const name = `N${'x'.repeat(198)}Z`;
    const created = await call(token, 'POST', '/admin/legal-entities', { name: `   ${name}\t \n` });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.name).toBe(name);
    const row = await ctx.db.selectFrom('legal_entities').select('name').where('id', '=', created.json().data.id).executeTakeFirstOrThrow();
    expect(row.name).toBe(name);
    const over = await call(token, 'POST', '/admin/legal-entities', { name: `  ${name}y  ` });
    expect(over.statusCode, over.body).toBe(422);
    expect(over.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ field: 'name' }] } });
  });

  it('/api/v1: a length counts characters, not UTF-16 units: 200 emoji are a name of 200 characters', async () => {
    const name = '🦊'.repeat(200);
    const created = await call(token, 'POST', '/admin/legal-entities', { name });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.name).toBe(name);
  });

  it('SCIM: displayName of 200 characters padded with spaces is accepted and stored trimmed; one more is 400 invalidValue', async () => {
    const displayName = `D${'y'.repeat(198)}Z`;
    const created = await scim('POST', '/Users', { schemas: [USER], userName: 'padded@contoso.test', displayName: `  ${displayName}   `, active: true });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().displayName).toBe(displayName);
    const stored = await ctx.db.selectFrom('users').select('full_name').where('id', '=', created.json().id).executeTakeFirstOrThrow();
    expect(stored.full_name).toBe(displayName);
    const emoji = await scim('PATCH', `/Users/${created.json().id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'displayName', value: '🦊'.repeat(200) }],
    });
    expect(emoji.statusCode, emoji.body).toBe(200);
    const over = await scim('POST', '/Users', { schemas: [USER], userName: 'over@contoso.test', displayName: `  ${displayName}z  `, active: true });
    expect(over.statusCode, over.body).toBe(400);
    expect(over.json()).toMatchObject({ scimType: 'invalidValue' });
    expect(over.json().detail).toContain('displayName');
  });

  it('raw bytes that are not UTF-8 in a JSON body are 400 BAD_REQUEST in the error shape, never stored as U+FFFD', async () => {
    const bodies = [
      Buffer.concat([Buffer.from('{"name":"North'), Buffer.from([0xff, 0xfe]), Buffer.from(' Bank"}')]),
      Buffer.concat([Buffer.from('{"name":"Over'), Buffer.from([0xc0, 0xaf]), Buffer.from('long"}')]),
      Buffer.concat([Buffer.from('{"name":"Cut'), Buffer.from([0xe2, 0x82]), Buffer.from('"}')]),
      Buffer.concat([Buffer.from('{"name":"Surrogate'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
    ];
    for (const payload of bodies) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/admin/legal-entities',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ error: 'Body is not valid UTF-8', code: 'BAD_REQUEST', request_id: response.headers['x-request-id'] });
    }
    const names = await ctx.db.selectFrom('legal_entities').select('name').where('enterprise_id', '=', enterprise.id).execute();
    expect(names.filter((row) => row.name.includes('\uFFFD'))).toEqual([]);
    // The identity provider reads the same parser: its own error shape, 400.
    const provider = await ctx.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      headers: { apikey: ctx.secrets.anonKey, 'content-type': 'application/json' },
      payload: bodies[0],
    });
    expect(provider.statusCode, provider.body).toBe(400);
    expect(provider.json()).toMatchObject({ error: 'invalid_request' });
    // Well-formed multi-byte UTF-8 (and a byte order mark) is still read as it was sent.
    const fine = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/legal-entities',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: Buffer.from('\uFEFF{"name":"Zürich Bank 🦊"}', 'utf8'),
    });
    expect(fine.statusCode, fine.body).toBe(201);
    expect(fine.json().data.name).toBe('Zürich Bank 🦊');
  });
});
