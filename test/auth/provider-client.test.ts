import { AuthApiError, AuthClient, GoTrueAdminApi, isAuthApiError, isAuthWeakPasswordError } from '@supabase/auth-js';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { createUser } from '../support/factories.js';
import { providerCalls } from '../support/provider.js';

/**
 * D3: the official @supabase/auth-js client works unchanged against the embedded provider, over real
 * HTTP (it sends X-Supabase-Api-Version, gotrue_meta_security and POST /logout?scope=global).
 */
describe('identity provider: @supabase/auth-js compatibility', async () => {
  const ctx = await createTestContext();
  let url = '';
  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/auth/v1`;
  });

  const client = () =>
    new AuthClient({ url, headers: { apikey: ctx.secrets.anonKey }, persistSession: false, autoRefreshToken: false, fetch });
  const { me } = providerCalls(ctx);

  it('signs in with a password, reads the user, refreshes and signs out (global by default)', async () => {
    const user = await createUser(ctx, { role: 'assessor' });
    const auth = client();
    const signIn = await auth.signInWithPassword({ email: user.email, password: user.password });
    expect(signIn.error).toBeNull();
    expect(signIn.data.user?.id).toBe(user.id);
    const first = signIn.data.session!;
    expect(first).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect((await me(first.access_token)).statusCode).toBe(200);

    const got = await auth.getUser();
    expect(got.error).toBeNull();
    expect(got.data.user).toMatchObject({ id: user.id, email: user.email, aud: 'authenticated' });

    const refreshed = await auth.refreshSession();
    expect(refreshed.error).toBeNull();
    const second = refreshed.data.session!;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.user.id).toBe(user.id);
    expect((await me(second.access_token)).statusCode).toBe(200);

    // Another device of the same user: the default global sign-out ends it too.
    const other = client();
    const otherSession = (await other.signInWithPassword({ email: user.email, password: user.password })).data.session!;
    expect((await me(otherSession.access_token)).statusCode).toBe(200);

    const out = await auth.signOut();
    expect(out.error).toBeNull();
    expect((await auth.getSession()).data.session).toBeNull();
    expect((await me(second.access_token)).statusCode).toBe(401);
    expect((await me(otherSession.access_token)).statusCode).toBe(401);
    const stale = await other.refreshSession();
    expect(stale.error).not.toBeNull();
    expect(stale.data.session).toBeNull();
  });

  it('signs out locally and others on request', async () => {
    const user = await createUser(ctx, { role: 'reviewer' });
    const a = client();
    const b = client();
    const sessionA = (await a.signInWithPassword({ email: user.email, password: user.password })).data.session!;
    const sessionB = (await b.signInWithPassword({ email: user.email, password: user.password })).data.session!;
    expect((await a.signOut({ scope: 'others' })).error).toBeNull();
    expect((await me(sessionA.access_token)).statusCode).toBe(200);
    expect((await me(sessionB.access_token)).statusCode).toBe(401);
    expect((await a.signOut({ scope: 'local' })).error).toBeNull();
    expect((await me(sessionA.access_token)).statusCode).toBe(401);
  });

  it('surfaces a wrong password as an AuthApiError with status 400 and the GoTrue code', async () => {
    const user = await createUser(ctx, { role: 'reviewer' });
    const { data, error } = await client().signInWithPassword({ email: user.email, password: 'not the password' });
    expect(data.session).toBeNull();
    expect(error).toBeInstanceOf(AuthApiError);
    expect(isAuthApiError(error)).toBe(true);
    expect(error).toMatchObject({ status: 400, message: 'Invalid login credentials', code: 'invalid_credentials' });
  });

  it('surfaces a refused token at getUser as an error, not a user', async () => {
    const { data, error } = await client().getUser('not-a-token');
    expect(data.user).toBeNull();
    expect(error).toMatchObject({ status: 401 });
  });

  it('surfaces a wrong apikey as an error', async () => {
    const user = await createUser(ctx, { role: 'reviewer' });
    const auth = new AuthClient({ url, headers: { apikey: 'wrong-key' }, persistSession: false, autoRefreshToken: false, fetch });
    const { error } = await auth.signInWithPassword({ email: user.email, password: user.password });
    expect(error).toMatchObject({ status: 401 });
  });

  it('lets the admin client set a password with the service-role key, and reports a weak one', async () => {
    const user = await createUser(ctx, { role: 'reviewer' });
    const adminApi = new GoTrueAdminApi({
      url,
      headers: { apikey: ctx.secrets.serviceRoleKey, Authorization: `Bearer ${ctx.secrets.serviceRoleKey}` },
      fetch,
    });
    const updated = await adminApi.updateUserById(user.id, { password: 'set by the admin client' });
    expect(updated.error).toBeNull();
    expect(updated.data.user).toMatchObject({ id: user.id, email: user.email });
    const signIn = await client().signInWithPassword({ email: user.email, password: 'set by the admin client' });
    expect(signIn.error).toBeNull();

    const weak = await adminApi.updateUserById(user.id, { password: 'short' });
    expect(isAuthWeakPasswordError(weak.error)).toBe(true);
    expect(weak.error).toMatchObject({ status: 422 });
  });
});
