import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries } from '../support/audit.js';
import { bearer, createUser } from '../support/factories.js';
import { providerCalls } from '../support/provider.js';

/** D3 admin password call (D10.4), the public key set, and the provider's place in the OpenAPI document. */
describe('identity provider: admin password call, key set, OpenAPI', async () => {
  const ctx = await createTestContext();
  const { anon, passwordGrant } = providerCalls(ctx);
  const admin = { ...anon, ...bearer(ctx.secrets.serviceRoleKey) };

  const setPassword = (userId: string, payload: unknown, headers: Record<string, string> = admin) =>
    ctx.app.inject({ method: 'PUT', url: `/auth/v1/admin/users/${userId}`, headers, payload: payload as object });
  const signIn = (email: string, password: string) => passwordGrant({ email, password });

  describe('PUT /auth/v1/admin/users/{user_id}', () => {
    it('sets the password with the service-role key: the new one signs in, the old one no longer does', async () => {
      const user = await createUser(ctx, { role: 'assessor' });
      const response = await setPassword(user.id, { password: 'a brand new secret' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ id: user.id, email: user.email });
      expect((await signIn(user.email, 'a brand new secret')).statusCode).toBe(200);
      expect((await signIn(user.email, user.password)).statusCode).toBe(400);
      const stored = await ctx.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(stored.password_hash).toMatch(/^scrypt\$/);
      expect(stored.password_hash).not.toContain('a brand new secret');
    });

    it("ends the user's existing sessions: old access and refresh tokens stop working, the audit entry counts them", async () => {
      const user = await createUser(ctx, { role: 'assessor' });
      const { signIn: signedIn, refreshGrant, me } = providerCalls(ctx);
      const before = await signedIn(user);
      const other = await signedIn(user);
      expect((await me(before.access_token)).statusCode).toBe(200);
      expect((await setPassword(user.id, { password: 'a reset password' })).statusCode).toBe(200);
      expect((await me(before.access_token)).statusCode).toBe(401);
      expect((await me(other.access_token)).statusCode).toBe(401);
      const refreshed = await refreshGrant(before.refresh_token);
      expect(refreshed.statusCode).toBe(400);
      expect(refreshed.json().error).toBe('invalid_grant');
      const [entry] = await auditEntries(ctx, { entityId: user.id, action: 'update' });
      expect(entry!.action_details).toMatchObject({ change: 'password_set', sessions_ended: 2 });
      // The new password opens a new session as usual.
      const after = await signedIn({ email: user.email, password: 'a reset password' });
      expect((await me(after.access_token)).statusCode).toBe(200);
    });

    it('gives a password to a user created without one, who can then sign in', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      await ctx.db.updateTable('users').set({ password_hash: null }).where('id', '=', user.id).execute();
      expect((await signIn(user.email, 'first password')).statusCode).toBe(400);
      expect((await setPassword(user.id, { password: 'first password', data: { ignored: true } })).statusCode).toBe(200);
      expect((await signIn(user.email, 'first password')).statusCode).toBe(200);
    });

    it("records the change in the user's enterprise trail, naming the service role as the actor", async () => {
      const user = await createUser(ctx, { role: 'assessor' });
      expect((await setPassword(user.id, { password: 'audited password' })).statusCode).toBe(200);
      const [entry] = await auditEntries(ctx, { entityId: user.id, action: 'update' });
      expect(entry).toMatchObject({ enterprise_id: user.enterpriseId, entity_type: 'user', user_id: null, status: 'success' });
      expect(entry!.action_details).toMatchObject({ change: 'password_set', actor: 'service_role' });
      expect(JSON.stringify(entry)).not.toContain('audited password');
    });

    it('answers 404 for an unknown user id, and for an id that is not a UUID', async () => {
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const response = await setPassword(id, { password: 'long enough password' });
        expect(response.statusCode, id).toBe(404);
        expect(response.json()).toMatchObject({ error: 'user_not_found' });
      }
    });

    it('refuses a password under 8 characters with 422 weak_password (D10.4), keeping the old one', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      for (const password of ['', 'seven77']) {
        const response = await setPassword(user.id, { password });
        expect(response.statusCode, password).toBe(422);
        expect(response.json()).toMatchObject({ error: 'weak_password' });
        expect(typeof response.json().error_description).toBe('string');
      }
      expect((await setPassword(user.id, { password: 'eight888' })).statusCode).toBe(200);
      expect((await signIn(user.email, 'eight888')).statusCode).toBe(200);
    });

    it('refuses an empty or malformed body with 400 invalid_request (D10.4)', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      for (const payload of [{}, { password: 12345678 }, { password: null }]) {
        const response = await setPassword(user.id, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json().error).toBe('invalid_request');
      }
      const none = await ctx.app.inject({ method: 'PUT', url: `/auth/v1/admin/users/${user.id}`, headers: admin });
      expect(none.statusCode).toBe(400);
      expect(none.json().error).toBe('invalid_request');
      const broken = await ctx.app.inject({
        method: 'PUT',
        url: `/auth/v1/admin/users/${user.id}`,
        headers: { ...admin, 'content-type': 'application/json' },
        payload: '{"password": ',
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.json().error).toBe('invalid_request');
    });

    it('refuses any bearer other than the service-role key with 401, and a missing apikey likewise', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      const member = await createUser(ctx, { role: 'admin' });
      const signedIn = (await signIn(member.email, member.password)).json();
      const attempts: Array<Record<string, string>> = [
        anon,
        { ...anon, ...bearer(ctx.secrets.anonKey) },
        { ...anon, ...bearer(signedIn.access_token) },
        { ...anon, ...bearer(`${ctx.secrets.serviceRoleKey}x`) },
        { ...anon, authorization: ctx.secrets.serviceRoleKey },
      ];
      for (const headers of attempts) {
        const response = await setPassword(user.id, { password: 'long enough password' }, headers);
        expect(response.statusCode, JSON.stringify(Object.keys(headers))).toBe(401);
        expect(typeof response.json().error).toBe('string');
      }
      const noKey = await setPassword(user.id, { password: 'long enough password' }, bearer(ctx.secrets.serviceRoleKey));
      expect(noKey.statusCode).toBe(401);
      expect(noKey.json().error).toBe('invalid_api_key');
      expect((await signIn(user.email, user.password)).statusCode).toBe(200);
    });
  });

  describe('key set', () => {
    it('publishes the public signing key without an apikey, at both addresses, with no private member', async () => {
      for (const url of ['/auth/v1/.well-known/jwks.json', '/auth/v1/jwks']) {
        const response = await ctx.app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
        const { keys } = response.json();
        expect(keys).toHaveLength(1);
        expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: ctx.secrets.signingKey.kid });
        expect(Object.keys(keys[0]).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
        expect(keys[0].d).toBeUndefined();
      }
    });

    it('verifies the access tokens the provider issues', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      const tokens = (await signIn(user.email, user.password)).json();
      const { keys } = (await ctx.app.inject({ method: 'GET', url: '/auth/v1/.well-known/jwks.json' })).json();
      const { payload } = await jwtVerify(tokens.access_token, createLocalJWKSet({ keys }), {
        issuer: ctx.config.auth.issuer,
        audience: ctx.config.auth.audience,
      });
      expect(payload.sub).toBe(user.id);
    });
  });

  it('lists every provider call in the OpenAPI document under the auth tag, with the apikey scheme (the key set: none)', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const expected: Array<[string, string, string]> = [
      ['/auth/v1/token', 'post', 'auth.token'],
      ['/auth/v1/logout', 'post', 'auth.logout'],
      ['/auth/v1/user', 'get', 'auth.user'],
      ['/auth/v1/.well-known/jwks.json', 'get', 'auth.jwks'],
      ['/auth/v1/admin/users/{user_id}', 'put', 'auth.admin.user.update'],
    ];
    for (const [path, method, operationId] of expected) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation).toMatchObject({ operationId, tags: ['auth'] });
      // The apikey header is a security scheme of every call but the key set; bearer where a token is sent.
      const schemes = (operation.security as Record<string, unknown>[]).flatMap((requirement) => Object.keys(requirement));
      if (operationId === 'auth.jwks') expect(schemes).toEqual([]);
      else expect(schemes).toContain('apikey');
      if (operationId === 'auth.token') expect(schemes).toEqual(['apikey']);
      expect(typeof operation.summary).toBe('string');
    }
  });
});

describe('identity provider: errors that are not its own', async () => {
  const ctx = await createTestContext({ env: { RATE_LIMIT_PER_MINUTE: '2' } });

  it("leaves a 429 to the platform's handler: the contract's body with retry_after and Retry-After", async () => {
    const { passwordGrant } = providerCalls(ctx);
    // A sign-in of the provider (/auth/v1, the test's provider calls), not a call of the API as someone.
    const failedSignIn = () => passwordGrant({ email: 'someone@example.test', password: 'whatever it is' });
    expect((await failedSignIn()).statusCode).toBe(400);
    expect((await failedSignIn()).statusCode).toBe(400);
    const limited = await failedSignIn();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', request_id: limited.headers['x-request-id'] });
    expect(typeof limited.json().retry_after).toBe('number');
  });
});
