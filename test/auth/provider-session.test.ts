import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries } from '../support/audit.js';
import { bearer, createUser, tokenFor } from '../support/factories.js';
import { providerCalls } from '../support/provider.js';

/** D3 GET /auth/v1/user and POST /auth/v1/logout: bearer checks like the API's, and revocation. */
describe('identity provider: user and logout', async () => {
  const ctx = await createTestContext();
  const { anon, signIn, refreshGrant: refresh, me } = providerCalls(ctx);

  const getUser = (token: string, headers: Record<string, string> = anon) =>
    ctx.app.inject({ method: 'GET', url: '/auth/v1/user', headers: { ...headers, ...bearer(token) } });
  const logout = (token: string, scope?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `/auth/v1/logout${scope === undefined ? '' : `?scope=${scope}`}`,
      headers: { ...anon, ...bearer(token) },
    });

  describe('GET /auth/v1/user', () => {
    it("answers the token's user: id, email, aud, role, created_at, last_sign_in_at", async () => {
      const user = await createUser(ctx, { role: 'assessor' });
      const tokens = await signIn(user);
      const response = await getUser(tokens.access_token);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ id: user.id, email: user.email, aud: 'authenticated', role: 'authenticated' });
      expect(Date.parse(body.created_at)).not.toBeNaN();
      expect(body.created_at).toMatch(/Z$/);
      expect(Date.parse(body.last_sign_in_at)).toBeGreaterThan(Date.now() - 60_000);
    });

    it('answers a signed-in user without an enterprise membership too (identity, not authorisation)', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      await ctx.db.updateTable('enterprise_members').set({ active: false }).where('user_id', '=', user.id).execute();
      const tokens = await signIn(user);
      expect((await me(tokens.access_token)).statusCode).toBe(403);
      expect((await getUser(tokens.access_token)).statusCode).toBe(200);
    });

    it('refuses with 401 what the API refuses: no bearer, a malformed or forged token, a deactivated user', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      const tokens = await signIn(user);
      const none = await ctx.app.inject({ method: 'GET', url: '/auth/v1/user', headers: anon });
      expect(none.statusCode).toBe(401);
      expect(none.json().error).toBe('invalid_token');
      expect((await getUser('not-a-jwt')).statusCode).toBe(401);
      const [head, payload] = tokens.access_token.split('.');
      expect((await getUser(`${head}.${payload}.AAAA`)).statusCode).toBe(401);
      expect((await getUser(ctx.secrets.serviceRoleKey)).statusCode).toBe(401);

      await ctx.db.updateTable('users').set({ active: false }).where('id', '=', user.id).execute();
      // A fresh session: the resolver may keep the earlier one's answer for PRINCIPAL_TTL_MS.
      const fresh = await tokenFor(ctx, user);
      const refused = await getUser(fresh);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ error: 'invalid_token' });
    });

    it('needs the apikey like every other provider call', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      const tokens = await signIn(user);
      const response = await getUser(tokens.access_token, {});
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toBe('invalid_api_key');
    });
  });

  describe('POST /auth/v1/logout', () => {
    it('without scope ends this session: its refresh token and (at once) its access token stop working', async () => {
      const user = await createUser(ctx, { role: 'admin' });
      const here = await signIn(user);
      const elsewhere = await signIn(user);
      // Warm the resolver's cache so that only an explicit invalidation can make the next call refuse.
      expect((await me(here.access_token)).statusCode).toBe(200);

      const response = await logout(here.access_token);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect((await me(here.access_token)).statusCode).toBe(401);
      expect((await getUser(here.access_token)).statusCode).toBe(401);
      const refused = await refresh(here.refresh_token);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toBe('invalid_grant');
      // The other session lives on.
      expect((await me(elsewhere.access_token)).statusCode).toBe(200);
      expect((await refresh(elsewhere.refresh_token)).statusCode).toBe(200);
    });

    it('scope=local ends only this session', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      const here = await signIn(user);
      const elsewhere = await signIn(user);
      expect((await logout(here.access_token, 'local')).statusCode).toBe(204);
      expect((await me(here.access_token)).statusCode).toBe(401);
      expect((await me(elsewhere.access_token)).statusCode).toBe(200);
    });

    it('scope=global ends every session of the user, and no other user\'s', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      const bystander = await createUser(ctx, { role: 'reviewer', enterpriseId: user.enterpriseId! });
      const here = await signIn(user);
      const elsewhere = await signIn(user);
      const theirs = await signIn(bystander);
      expect((await me(elsewhere.access_token)).statusCode).toBe(200);
      expect((await logout(here.access_token, 'global')).statusCode).toBe(204);
      expect((await me(here.access_token)).statusCode).toBe(401);
      expect((await me(elsewhere.access_token)).statusCode).toBe(401);
      expect((await refresh(elsewhere.refresh_token)).statusCode).toBe(400);
      expect((await me(theirs.access_token)).statusCode).toBe(200);
    });

    it('scope=others ends every session but this one', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      const here = await signIn(user);
      const elsewhere = await signIn(user);
      expect((await me(elsewhere.access_token)).statusCode).toBe(200);
      expect((await logout(here.access_token, 'others')).statusCode).toBe(204);
      expect((await me(here.access_token)).statusCode).toBe(200);
      expect((await refresh(here.refresh_token)).statusCode).toBe(200);
      expect((await me(elsewhere.access_token)).statusCode).toBe(401);
      expect((await refresh(elsewhere.refresh_token)).statusCode).toBe(400);
    });

    it('refuses an unknown scope with 400 invalid_request, changing nothing', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      const here = await signIn(user);
      const response = await logout(here.access_token, 'everything');
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('invalid_request');
      expect((await me(here.access_token)).statusCode).toBe(200);
    });

    it('refuses an invalid or already ended session with 401', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      const here = await signIn(user);
      expect((await logout('garbage')).statusCode).toBe(401);
      expect((await logout(here.access_token)).statusCode).toBe(204);
      const again = await logout(here.access_token);
      expect(again.statusCode).toBe(401);
      expect(again.json().error).toBe('invalid_token');
      const noBearer = await ctx.app.inject({ method: 'POST', url: '/auth/v1/logout', headers: anon });
      expect(noBearer.statusCode).toBe(401);
    });

    it("writes a logout entry: a member's in the enterprise trail, a super admin's in the platform trail", async () => {
      const member = await createUser(ctx, { role: 'assessor' });
      const admin = await createUser(ctx, { role: 'super_admin' });
      for (const user of [member, admin]) {
        const tokens = await signIn(user);
        expect((await logout(tokens.access_token, 'global')).statusCode).toBe(204);
        const entries = await auditEntries(ctx, { userId: user.id, action: 'logout' });
        expect(entries).toHaveLength(1);
        expect(entries[0]).toMatchObject({
          enterprise_id: user.enterpriseId,
          status: 'success',
          entity_type: 'user',
          entity_id: user.id,
          user_email: user.email,
        });
        expect(entries[0]!.action_details).toMatchObject({ scope: 'global', sessions_ended: 1 });
      }
    });

    it('needs the apikey', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      const here = await signIn(user);
      const response = await ctx.app.inject({ method: 'POST', url: '/auth/v1/logout', headers: bearer(here.access_token) });
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toBe('invalid_api_key');
      expect((await me(here.access_token)).statusCode).toBe(200);
    });
  });
});
