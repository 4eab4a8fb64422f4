import SCIMMY from 'scimmy';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { createEnterprise, createLegalEntity, createUser, tokenFor } from '../support/factories.js';
import { calls } from '../support/cast.js';

/**
 * SCIM 2.0 as Entra ID and Okta provision: the requests their documentation shows (create, look up by
 * userName, update, PATCH replace/add, deactivate, group membership) replayed, each answer checked against
 * RFC 7643's User and Group schemas by an independent implementation (SCIMMY).
 */
describe('SCIM provisioning (RFC 7643/7644), as Entra ID and Okta send it', async () => {
  const ctx = await createTestContext();
  const enterprise = await createEnterprise(ctx);
  const admin = await createUser(ctx, { role: 'admin', enterpriseId: enterprise.id });
  const adminToken = await tokenFor(ctx, admin);
  const { call } = calls(ctx);
  const entity = await createLegalEntity(ctx, enterprise.id);
  const issued = (await call(adminToken, 'POST', '/scim/tokens', { name: 'Entra ID' })).json().data;
  const scim = (method: string, url: string, payload?: unknown, token: string = issued.token) =>
    ctx.app.inject({ method: method as 'GET', url: `/scim/v2${url}`, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });
  const conforms = (schema: { definition: { coerce: (resource: never, direction: 'out') => unknown } }, resource: Record<string, unknown>) => expect(() => schema.definition.coerce(resource as never, 'out')).not.toThrow();

  it('issues the token with its tenant URL; a call without it is 401 in the SCIM error shape', async () => {
    expect(issued.token).toMatch(/^rsk_scim_/);
    expect(issued.scim_base_url).toBe(`${ctx.config.publicUrl}/scim/v2`);
    const refused = await scim('GET', '/Users', undefined, 'rsk_scim_00000000000000000000000000000000_' + 'A'.repeat(43));
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['content-type']).toContain('application/scim+json');
    expect(refused.json()).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '401' });
  });

  it("Entra ID's cycle: filter by userName (none), create, filter (found), PATCH replace with string booleans, deactivate", async () => {
    const none = await scim('GET', '/Users?filter=userName+eq+%22Test_User_ab6490ee@contoso.test%22');
    expect(none.json()).toMatchObject({ totalResults: 0, Resources: [] });
    const created = await scim('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName: 'Test_User_ab6490ee@contoso.test',
      active: true,
      emails: [{ primary: true, type: 'work', value: 'Test_User_ab6490ee@contoso.test' }],
      meta: { resourceType: 'User' },
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      roles: [],
    });
    expect(created.statusCode).toBe(201);
    const user = created.json();
    conforms(SCIMMY.Schemas.User, user);
    expect(user).toMatchObject({ userName: 'test_user_ab6490ee@contoso.test', active: true, externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef', name: { formatted: 'givenName familyName' } });
    const found = await scim('GET', '/Users?filter=userName+eq+%22Test_User_ab6490ee@contoso.test%22');
    expect(found.json().Resources.map((r: { id: string }) => r.id)).toEqual([user.id]);
    const byExternal = await scim('GET', `/Users?filter=${encodeURIComponent('externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"')}`);
    expect(byExternal.json().totalResults).toBe(1);

    const patched = await scim('PATCH', `/Users/${user.id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [
        { op: 'Replace', path: 'displayName', value: 'Ryan Leenay' },
        { op: 'Add', path: 'emails[type eq "work"].value', value: 'ryan@contoso.test' },
        { op: 'Replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Risk' },
      ],
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ displayName: 'Ryan Leenay', userName: 'ryan@contoso.test' });

    const session = await tokenFor(ctx, { id: user.id, email: 'ryan@contoso.test' });
    expect((await call(session, 'GET', '/me')).statusCode).toBe(200);
    const deactivated = await scim('PATCH', `/Users/${user.id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    expect(deactivated.json().active).toBe(false);
    // Sessions ended, as a deactivation by an administrator ends them.
    expect((await call(session, 'GET', '/me')).statusCode).toBe(401);
    const entry = await ctx.db.selectFrom('audit_log').selectAll().where('entity_id', '=', user.id).where('action_type', '=', 'delete').executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ user_id: null, enterprise_id: enterprise.id });
    expect(entry.action_details).toMatchObject({ actor: 'scim', scim_token_id: issued.id, sessions_revoked: 1 });
    const back = await scim('PATCH', `/Users/${user.id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'active', value: true }] });
    expect(back.json().active).toBe(true);
  });

  it("Okta's cycle: create, PUT the whole user, path-less PATCH replace active false, and DELETE deactivates", async () => {
    const created = (await scim('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'isaac.brock@example.test',
      name: { givenName: 'Isaac', familyName: 'Brock' },
      emails: [{ primary: true, value: 'isaac.brock@example.test', type: 'work' }],
      displayName: 'Isaac Brock',
      locale: 'en-US',
      externalId: '00ujl29u0le5T6Aj10h7',
      groups: [],
      password: '1mz050nq',
      active: true,
    })).json();
    conforms(SCIMMY.Schemas.User, created);
    const put = await scim('PUT', `/Users/${created.id}`, { ...created, displayName: 'Isaac B. Brock', name: { givenName: 'Isaac', familyName: 'Brock' } });
    expect(put.json().displayName).toBe('Isaac B. Brock');
    const off = await scim('PATCH', `/Users/${created.id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', value: { active: false } }] });
    expect(off.json().active).toBe(false);
    expect((await scim('DELETE', `/Users/${created.id}`)).statusCode).toBe(204);
    expect((await scim('GET', `/Users/${created.id}`)).json().active).toBe(false);
  });

  it('groups: pushed, mapped by the client admin to a role and entities; membership adds and removes give and take them', async () => {
    const person = (await scim('POST', '/Users', { userName: 'ana@example.test', displayName: 'Ana' })).json();
    const group = await scim('POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'GRC Assessors', members: [] });
    expect(group.statusCode).toBe(201);
    conforms(SCIMMY.Schemas.Group, group.json());
    const groupId = group.json().id;
    const read = await call(adminToken, 'GET', `/scim/groups/${groupId}`);
    const mapped = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/v1/scim/groups/${groupId}`,
      headers: { authorization: `Bearer ${adminToken}`, 'if-match': read.headers.etag as string },
      payload: { role: 'assessor', entity_assignments: [{ legal_entity_id: entity.id }] },
    });
    expect(mapped.statusCode).toBe(200);
    // Entra ID adds a member by value.
    await scim('PATCH', `/Groups/${groupId}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'Add', path: 'members', value: [{ value: person.id }] }] });
    const member = await ctx.db.selectFrom('enterprise_members').select('role').where('user_id', '=', person.id).executeTakeFirstOrThrow();
    expect(member.role).toBe('assessor');
    const roles = await ctx.db.selectFrom('entity_roles').select('legal_entity_id').where('user_id', '=', person.id).execute();
    expect(roles).toEqual([{ legal_entity_id: entity.id }]);
    expect((await scim('GET', `/Groups/${groupId}`)).json().members.map((m: { value: string }) => m.value)).toEqual([person.id]);
    // Entra ID removes by a value filter in the path.
    await scim('PATCH', `/Groups/${groupId}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'Remove', path: `members[value eq "${person.id}"]` }] });
    expect((await ctx.db.selectFrom('enterprise_members').select('role').where('user_id', '=', person.id).executeTakeFirstOrThrow()).role).toBe('reviewer');
    expect(await ctx.db.selectFrom('entity_roles').select('id').where('user_id', '=', person.id).execute()).toEqual([]);
    // Okta: replace members, then rename with a path-less replace.
    await scim('PATCH', `/Groups/${groupId}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', value: { id: groupId, displayName: 'GRC Assessors EU', members: [{ value: person.id }] } }] });
    const renamed = (await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "GRC Assessors EU"')}`)).json();
    expect(renamed.totalResults).toBe(1);
    expect((await ctx.db.selectFrom('enterprise_members').select('role').where('user_id', '=', person.id).executeTakeFirstOrThrow()).role).toBe('assessor');
  });

  it('never a super admin, never admin by mapping, never another enterprise', async () => {
    const superAdmin = await createUser(ctx, { role: 'super_admin' });
    const taken = await scim('POST', '/Users', { userName: superAdmin.email });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().scimType).toBe('uniqueness');
    const group = (await scim('POST', '/Groups', { displayName: 'Would-be admins' })).json();
    const read = await call(adminToken, 'GET', `/scim/groups/${group.id}`);
    const admins = await ctx.app.inject({
      method: 'PATCH', url: `/api/v1/scim/groups/${group.id}`, headers: { authorization: `Bearer ${adminToken}`, 'if-match': read.headers.etag as string }, payload: { role: 'admin' },
    });
    expect(admins.statusCode).toBe(422);
    const other = await createEnterprise(ctx);
    const stranger = await createUser(ctx, { role: 'reviewer', enterpriseId: other.id });
    expect((await scim('GET', `/Users/${stranger.id}`)).statusCode).toBe(404);
    expect((await scim('PATCH', `/Users/${stranger.id}`, { Operations: [{ op: 'replace', path: 'active', value: false }] })).statusCode).toBe(404);
    expect((await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${stranger.email}"`)}`)).json().totalResults).toBe(0);
    const addStranger = await scim('PATCH', `/Groups/${group.id}`, { Operations: [{ op: 'add', path: 'members', value: [{ value: stranger.id }] }] });
    expect(addStranger.statusCode).toBe(400);
    expect((await ctx.db.selectFrom('users').select('active').where('id', '=', stranger.id).executeTakeFirstOrThrow()).active).toBe(true);
    // A client admin's role is not the directory's to change.
    const adminAsScim = await scim('PATCH', `/Users/${admin.id}`, { Operations: [{ op: 'replace', path: 'displayName', value: 'The admin' }] });
    expect(adminAsScim.statusCode).toBe(200);
    expect((await ctx.db.selectFrom('enterprise_members').select('role').where('user_id', '=', admin.id).executeTakeFirstOrThrow()).role).toBe('admin');
  });

  it('unsupported filters are refused with invalidFilter; a revoked token is refused at once', async () => {
    const bad = await scim('GET', `/Users?filter=${encodeURIComponent('userName co "a"')}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().scimType).toBe('invalidFilter');
    const second = (await call(adminToken, 'POST', '/scim/tokens', { name: 'Okta' })).json().data;
    expect((await scim('GET', '/Users', undefined, second.token)).statusCode).toBe(200);
    expect((await call(adminToken, 'DELETE', `/scim/tokens/${second.id}`)).statusCode).toBe(200);
    expect((await scim('GET', '/Users', undefined, second.token)).statusCode).toBe(401);
  });
});
