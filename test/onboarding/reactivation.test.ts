import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries } from '../support/audit.js';
import { cast } from '../support/cast.js';
import { assignEntity, createLegalEntity, createUser } from '../support/factories.js';
import { providerCalls } from '../support/provider.js';

describe('POST /admin/enterprises/{id}/users/{user_id}/reactivate', async () => {
  const ctx = await createTestContext();
  const { signIn, me } = providerCalls(ctx);
  // The callers are the cast's; each test makes the members it deactivates and reactivates.
  const w = await cast(ctx);
  const { admin, superAdmin, call } = w;
  const base = `/admin/enterprises/${w.enterprise.id}/users`;
  const member = (role: 'admin' | 'assessor' | 'reviewer') => createUser(ctx, { role, enterpriseId: w.enterprise.id });

  it('brings back the same identity, membership, role and entity assignments, and the password works again', async () => {
    const assessor = await member('assessor');
    const entity = await createLegalEntity(ctx, w.enterprise.id);
    await assignEntity(ctx, assessor, entity.id);
    expect((await call(admin, 'DELETE', `${base}/${assessor.id}`)).statusCode).toBe(200);

    const response = await call(admin, 'POST', `${base}/${assessor.id}/reactivate`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({
      id: assessor.memberId,
      user_id: assessor.id,
      email: assessor.email,
      full_name: assessor.fullName,
      role: 'assessor',
      entity_assignments: 1,
    });
    const listed = (await call(admin, 'GET', base)).json().data.find((u: { user_id: string }) => u.user_id === assessor.id);
    expect(listed).toMatchObject({ id: assessor.memberId, role: 'assessor', active: true, deactivated_at: null });
    expect(listed.entity_assignments.map((a: { legal_entity_id: string }) => a.legal_entity_id)).toEqual([entity.id]);
    const session = await signIn(assessor);
    expect((await me(session.access_token)).json().data).toMatchObject({ user_id: assessor.id, role: 'assessor' });
    const entries = await auditEntries(ctx, { entityId: assessor.id, action: 'update' });
    expect(entries.at(-1)?.action_details).toMatchObject({ change: 'reactivated', role: 'assessor', entity_assignments: 1 });
    expect(entries.at(-1)?.enterprise_id).toBe(admin.enterpriseId);
  });

  it('an active user: 409 INVALID_STATE', async () => {
    const reviewer = await member('reviewer');
    const response = await call(admin, 'POST', `${base}/${reviewer.id}/reactivate`);
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('INVALID_STATE');
  });

  it('a client admin cannot reactivate an admin (403); a super admin can', async () => {
    const otherAdmin = await member('admin');
    const url = `${base}/${otherAdmin.id}`;
    expect((await call(superAdmin, 'DELETE', url)).statusCode).toBe(200);
    expect((await call(admin, 'POST', `${url}/reactivate`)).statusCode).toBe(403);
    expect((await call(w.assessor, 'POST', `${url}/reactivate`)).statusCode).toBe(403);
    const bySuper = await call(superAdmin, 'POST', `${url}/reactivate`);
    expect(bySuper.statusCode).toBe(200);
    // A super admin's change goes to the platform trail (D10.3).
    expect((await auditEntries(ctx, { entityId: otherAdmin.id, action: 'update' })).at(-1)?.enterprise_id).toBeNull();
  });

  it('another enterprise’s user, or an unknown id: 404', async () => {
    const stranger = await createUser(ctx, { role: 'assessor' });
    expect((await call(admin, 'POST', `/admin/enterprises/${stranger.enterpriseId}/users/${stranger.id}/reactivate`)).statusCode).toBe(404);
    expect((await call(admin, 'POST', `${base}/${stranger.id}/reactivate`)).statusCode).toBe(404);
    expect((await call(admin, 'POST', `${base}/${crypto.randomUUID()}/reactivate`)).statusCode).toBe(404);
  });

  it('the e-mail taken by another active user meanwhile: 409 CONFLICT, nothing changes', async () => {
    const reviewer = await member('reviewer');
    await call(admin, 'DELETE', `${base}/${reviewer.id}`);
    expect((await call(admin, 'POST', base, { email: reviewer.email, full_name: 'New Person', role: 'reviewer' })).statusCode).toBe(201);
    const response = await call(admin, 'POST', `${base}/${reviewer.id}/reactivate`);
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('CONFLICT');
    const row = await ctx.db.selectFrom('users').select('active').where('id', '=', reviewer.id).executeTakeFirstOrThrow();
    expect(row.active).toBe(false);
  });
});
