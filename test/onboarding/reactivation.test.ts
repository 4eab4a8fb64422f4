import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries } from '../support/audit.js';
import { assignEntity, bearer, createLegalEntity, createUser, tokenFor } from '../support/factories.js';
import { providerCalls } from '../support/provider.js';

describe('POST /admin/enterprises/{id}/users/{user_id}/reactivate', async () => {
  const ctx = await createTestContext();
  const { signIn, me } = providerCalls(ctx);
  const call = (method: 'POST' | 'DELETE' | 'GET', url: string, token: string, payload?: object) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });

  it('brings back the same identity, membership, role and entity assignments, and the password works again', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const token = await tokenFor(ctx, admin);
    const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: admin.enterpriseId! });
    const entity = await createLegalEntity(ctx, admin.enterpriseId!);
    await assignEntity(ctx, assessor, entity.id);
    const base = `/admin/enterprises/${admin.enterpriseId}/users`;
    expect((await call('DELETE', `${base}/${assessor.id}`, token)).statusCode).toBe(200);

    const response = await call('POST', `${base}/${assessor.id}/reactivate`, token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({
      id: assessor.memberId,
      user_id: assessor.id,
      email: assessor.email,
      full_name: assessor.fullName,
      role: 'assessor',
      entity_assignments: 1,
    });
    const listed = (await call('GET', base, token)).json().data.find((u: { user_id: string }) => u.user_id === assessor.id);
    expect(listed).toMatchObject({ id: assessor.memberId, role: 'assessor', active: true, deactivated_at: null });
    expect(listed.entity_assignments.map((a: { legal_entity_id: string }) => a.legal_entity_id)).toEqual([entity.id]);
    const session = await signIn(assessor);
    expect((await me(session.access_token)).json().data).toMatchObject({ user_id: assessor.id, role: 'assessor' });
    const entries = await auditEntries(ctx, { entityId: assessor.id, action: 'update' });
    expect(entries.at(-1)?.action_details).toMatchObject({ change: 'reactivated', role: 'assessor', entity_assignments: 1 });
    expect(entries.at(-1)?.enterprise_id).toBe(admin.enterpriseId);
  });

  it('an active user: 409 INVALID_STATE', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const reviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: admin.enterpriseId! });
    const response = await call('POST', `/admin/enterprises/${admin.enterpriseId}/users/${reviewer.id}/reactivate`, await tokenFor(ctx, admin));
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('INVALID_STATE');
  });

  it('a client admin cannot reactivate an admin (403); a super admin can', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: admin.enterpriseId! });
    const superAdmin = await createUser(ctx, { role: 'super_admin' });
    const superToken = await tokenFor(ctx, superAdmin);
    const url = `/admin/enterprises/${admin.enterpriseId}/users/${otherAdmin.id}`;
    expect((await call('DELETE', url, superToken)).statusCode).toBe(200);
    expect((await call('POST', `${url}/reactivate`, await tokenFor(ctx, admin))).statusCode).toBe(403);
    const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: admin.enterpriseId! });
    expect((await call('POST', `${url}/reactivate`, await tokenFor(ctx, assessor))).statusCode).toBe(403);
    const bySuper = await call('POST', `${url}/reactivate`, superToken);
    expect(bySuper.statusCode).toBe(200);
    // A super admin's change goes to the platform trail (D10.3).
    expect((await auditEntries(ctx, { entityId: otherAdmin.id, action: 'update' })).at(-1)?.enterprise_id).toBeNull();
  });

  it('another enterprise’s user, or an unknown id: 404', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const stranger = await createUser(ctx, { role: 'assessor' });
    const token = await tokenFor(ctx, admin);
    expect((await call('POST', `/admin/enterprises/${stranger.enterpriseId}/users/${stranger.id}/reactivate`, token)).statusCode).toBe(404);
    expect((await call('POST', `/admin/enterprises/${admin.enterpriseId}/users/${stranger.id}/reactivate`, token)).statusCode).toBe(404);
    expect((await call('POST', `/admin/enterprises/${admin.enterpriseId}/users/${crypto.randomUUID()}/reactivate`, token)).statusCode).toBe(404);
  });

  it('the e-mail taken by another active user meanwhile: 409 CONFLICT, nothing changes', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const token = await tokenFor(ctx, admin);
    const reviewer = await createUser(ctx, { role: 'reviewer', enterpriseId: admin.enterpriseId! });
    const base = `/admin/enterprises/${admin.enterpriseId}/users`;
    await call('DELETE', `${base}/${reviewer.id}`, token);
    expect((await call('POST', base, token, { email: reviewer.email, full_name: 'New Person', role: 'reviewer' })).statusCode).toBe(201);
    const response = await call('POST', `${base}/${reviewer.id}/reactivate`, token);
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('CONFLICT');
    const row = await ctx.db.selectFrom('users').select('active').where('id', '=', reviewer.id).executeTakeFirstOrThrow();
    expect(row.active).toBe(false);
  });
});
