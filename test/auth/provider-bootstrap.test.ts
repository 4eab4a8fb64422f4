import { describe, expect, it } from 'vitest';
import { ensureBootstrapSuperAdmin } from '../../src/modules/identity/bootstrap.js';
import { createTestContext } from '../support/app.js';
import { createUser } from '../support/factories.js';
import { providerCalls } from '../support/provider.js';

/** D1 BOOTSTRAP_SUPER_ADMIN_*: one super admin, created once, who signs in through the provider. */
describe('identity provider: bootstrap super admin', async () => {
  const ctx = await createTestContext();
  const credentials = { email: 'Root.Admin@Example.test', password: 'bootstrap secret 1' };

  const superAdmins = () => ctx.db.selectFrom('users').selectAll().where('is_super_admin', '=', true).execute();
  const { passwordGrant, me } = providerCalls(ctx);
  const signIn = (email: string, password: string) => passwordGrant({ email, password });

  it('creates one active super admin, who can sign in and is a super admin at the API', async () => {
    expect(await superAdmins()).toHaveLength(0);
    expect(await ensureBootstrapSuperAdmin(ctx.db, credentials)).toBe(true);
    const admins = await superAdmins();
    expect(admins).toHaveLength(1);
    expect(admins[0]).toMatchObject({ email: 'root.admin@example.test', active: true });
    expect(admins[0]!.password_hash).not.toContain(credentials.password);

    const response = await signIn('ROOT.ADMIN@example.test', credentials.password);
    expect(response.statusCode, response.body).toBe(200);
    const principal = await me(response.json().access_token);
    expect(principal.statusCode).toBe(200);
    expect(principal.json().data).toMatchObject({ role: 'super_admin', enterprise_id: null });
  });

  it('creates nothing on a second start, nor with other credentials, while an active super admin exists', async () => {
    expect(await ensureBootstrapSuperAdmin(ctx.db, credentials)).toBe(false);
    expect(await ensureBootstrapSuperAdmin(ctx.db, { email: 'other@example.test', password: 'another secret' })).toBe(false);
    expect(await superAdmins()).toHaveLength(1);
    expect((await signIn('other@example.test', 'another secret')).statusCode).toBe(400);
    expect((await signIn(credentials.email, credentials.password)).statusCode).toBe(200);
  });

  it('promotes an active user with that e-mail instead of duplicating it, once no active super admin is left', async () => {
    await ctx.db.updateTable('users').set({ active: false }).where('is_super_admin', '=', true).execute();
    const existing = await createUser(ctx, { role: 'reviewer', email: 'Promoted@Example.test' });
    expect(await ensureBootstrapSuperAdmin(ctx.db, { email: 'promoted@example.test', password: 'promoted secret' })).toBe(true);
    const rows = await ctx.db.selectFrom('users').selectAll().where((eb) => eb(eb.fn('lower', ['email']), '=', 'promoted@example.test')).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: existing.id, is_super_admin: true, active: true });
    expect((await signIn('promoted@example.test', 'promoted secret')).statusCode).toBe(200);
  });
});
