import { createHash } from 'node:crypto';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries, countAuditEntries } from '../support/audit.js';
import { createEnterprise, createUser } from '../support/factories.js';
import { providerCalls } from '../support/provider.js';

/** D3 token endpoint: the password grant, refresh-token rotation, the apikey guard and sign-in audit. */
describe('identity provider: POST /auth/v1/token', async () => {
  const ctx = await createTestContext();
  const { anon, passwordGrant, refreshGrant, signIn, me } = providerCalls(ctx);
  const loginEntries = (userId: string) => auditEntries(ctx, { userId, action: 'login' });
  const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
  const INVALID_LOGIN = { error: 'invalid_grant', error_description: 'Invalid login credentials' };

  describe('password grant', () => {
    it('answers the D3 token shape with a verifiable ES256 access token naming a new session', async () => {
      const user = await createUser(ctx, { role: 'assessor' });
      const before = Math.floor(Date.now() / 1000);
      const response = await passwordGrant({ email: user.email, password: user.password });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ token_type: 'bearer', expires_in: 3600, user: { id: user.id, email: user.email } });
      expect(body.expires_at).toBeGreaterThanOrEqual(before + 3600);
      expect(body.expires_at).toBeLessThanOrEqual(before + 3602);

      const keys = createLocalJWKSet({ keys: [ctx.secrets.signingKey.publicJwk] });
      const { payload } = await jwtVerify(body.access_token, keys, { issuer: ctx.config.auth.issuer, audience: 'authenticated' });
      expect(decodeProtectedHeader(body.access_token).alg).toBe('ES256');
      expect(payload).toMatchObject({ sub: user.id, email: user.email, role: 'authenticated', exp: body.expires_at });
      expect((payload.exp as number) - (payload.iat as number)).toBe(3600);
      const session = await ctx.db.selectFrom('auth_sessions').selectAll().where('id', '=', payload['session_id'] as string).executeTakeFirst();
      expect(session).toMatchObject({ user_id: user.id, revoked_at: null });
      expect((await me(body.access_token)).statusCode).toBe(200);
    });

    it('stores the refresh token (>= 128 random bits) only as its SHA-256, valid for 7 days', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      const body = await signIn(user);
      expect(body.refresh_token).toMatch(/^[A-Za-z0-9_-]{43,}$/);
      const rows = await ctx.db
        .selectFrom('auth_refresh_tokens as t')
        .innerJoin('auth_sessions as s', 's.id', 't.session_id')
        .select(['t.token_hash', 't.expires_at', 't.replaced_at'])
        .where('s.user_id', '=', user.id)
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.token_hash).toBe(sha256(body.refresh_token));
      expect(rows[0]!.token_hash).not.toContain(body.refresh_token);
      const sevenDays = Date.now() + 7 * 24 * 3600 * 1000;
      expect(Math.abs(rows[0]!.expires_at.getTime() - sevenDays)).toBeLessThan(60_000);
    });

    it('records last_sign_in_at and a successful login entry in the member enterprise trail', async () => {
      const user = await createUser(ctx, { role: 'admin' });
      const body = await signIn(user);
      const row = await ctx.db.selectFrom('users').select('last_sign_in_at').where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(row.last_sign_in_at).not.toBeNull();
      expect(Date.now() - row.last_sign_in_at!.getTime()).toBeLessThan(60_000);
      const entries = await loginEntries(user.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        enterprise_id: user.enterpriseId,
        status: 'success',
        entity_type: 'user',
        entity_id: user.id,
        user_email: user.email,
        user_name: user.fullName,
      });
      const { payload } = await jwtVerify(body.access_token, createLocalJWKSet({ keys: [ctx.secrets.signingKey.publicJwk] }));
      expect(entries[0]!.action_details).toMatchObject({ session_id: payload['session_id'] });
    });

    it("files a super admin's sign-in in the platform trail (enterprise_id null)", async () => {
      const admin = await createUser(ctx, { role: 'super_admin' });
      await signIn(admin);
      const entries = await loginEntries(admin.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ enterprise_id: null, status: 'success' });
    });

    it('ignores unknown body members (gotrue_meta_security) and matches the e-mail case-insensitively', async () => {
      const user = await createUser(ctx, { role: 'reviewer', email: `Mixed.Case-${Date.now()}@Example.test` });
      const response = await passwordGrant({
        email: user.email.toUpperCase(),
        password: user.password,
        gotrue_meta_security: { captcha_token: null },
        anything: 1,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().user.id).toBe(user.id);
    });

    it('refuses a wrong password with invalid_grant, a failed login entry and an auth failure report', async () => {
      const user = await createUser(ctx, { role: 'assessor' });
      const spy = vi.spyOn(ctx.monitor, 'authFailure');
      const response = await passwordGrant({ email: user.email.toUpperCase(), password: 'wrong password' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject(INVALID_LOGIN);
      expect(spy).toHaveBeenCalledWith({ account: user.email.toLowerCase(), enterpriseId: user.enterpriseId, ip: '127.0.0.1', signIn: true });
      spy.mockRestore();
      const entries = await loginEntries(user.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ enterprise_id: user.enterpriseId, status: 'failed', entity_type: 'user', entity_id: user.id });
      expect(await ctx.db.selectFrom('auth_sessions').select('id').where('user_id', '=', user.id).execute()).toHaveLength(0);
    });

    it('refuses an unknown e-mail with the same answer, reports it, and writes no entry (no account)', async () => {
      const spy = vi.spyOn(ctx.monitor, 'authFailure');
      const before = await countAuditEntries(ctx);
      const response = await passwordGrant({ email: 'Nobody@Example.test', password: 'correct horse battery' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject(INVALID_LOGIN);
      expect(spy).toHaveBeenCalledWith({ account: 'nobody@example.test', enterpriseId: null, ip: '127.0.0.1', signIn: true });
      spy.mockRestore();
      expect(await countAuditEntries(ctx)).toBe(before);
    });

    it('refuses a deactivated user even with the right password, and records the failed attempt', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      await ctx.db.updateTable('users').set({ active: false }).where('id', '=', user.id).execute();
      const response = await passwordGrant({ email: user.email, password: user.password });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject(INVALID_LOGIN);
      const entries = await loginEntries(user.id);
      expect(entries).toMatchObject([{ status: 'failed', enterprise_id: user.enterpriseId }]);
    });

    it('refuses a user who has no password yet', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      await ctx.db.updateTable('users').set({ password_hash: null }).where('id', '=', user.id).execute();
      const response = await passwordGrant({ email: user.email, password: user.password });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject(INVALID_LOGIN);
    });

    it('answers a missing, empty, mistyped or unparsable body with 400 invalid_request (415 for another content type)', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      for (const body of [{}, { email: user.email }, { email: user.email, password: '' }, { email: 5, password: 'x' }]) {
        const response = await passwordGrant(body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json().error).toBe('invalid_request');
        expect(typeof response.json().error_description).toBe('string');
      }
      const empty = await ctx.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=password', headers: anon });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().error).toBe('invalid_request');
      const broken = await ctx.app.inject({
        method: 'POST',
        url: '/auth/v1/token?grant_type=password',
        headers: { ...anon, 'content-type': 'application/json' },
        payload: '{"email":',
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toMatchObject({ error: 'invalid_request' });
      expect(broken.json().code).toBeUndefined();
      const form = await ctx.app.inject({
        method: 'POST',
        url: '/auth/v1/token?grant_type=password',
        headers: { ...anon, 'content-type': 'text/plain' },
        payload: 'email=a',
      });
      expect(form.statusCode).toBe(415);
      expect(form.json().error).toBe('invalid_request');
    });

    it('answers an unknown or missing grant_type with 400 unsupported_grant_type', async () => {
      for (const url of ['/auth/v1/token?grant_type=client_credentials', '/auth/v1/token']) {
        const response = await ctx.app.inject({ method: 'POST', url, headers: anon, payload: { email: 'a@b.test', password: 'x' } });
        expect(response.statusCode, url).toBe(400);
        expect(response.json().error).toBe('unsupported_grant_type');
      }
    });
  });

  describe('apikey', () => {
    it('refuses a missing or wrong apikey with 401 invalid_api_key before looking at the body', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      for (const headers of [{}, { apikey: 'wrong' }, { apikey: `${ctx.secrets.anonKey}x` }, { apikey: '' }] as Array<Record<string, string>>) {
        const response = await passwordGrant({ email: user.email, password: user.password }, headers);
        expect(response.statusCode, JSON.stringify(headers)).toBe(401);
        expect(response.json()).toMatchObject({ error: 'invalid_api_key' });
        expect(typeof response.json().error_description).toBe('string');
        expect(response.headers['x-request-id']).toBeTruthy();
      }
      const broken = await ctx.app.inject({
        method: 'POST',
        url: '/auth/v1/token?grant_type=password',
        headers: { 'content-type': 'application/json' },
        payload: '{not json',
      });
      expect(broken.statusCode).toBe(401);
      expect(broken.json().error).toBe('invalid_api_key');
    });

    it('accepts the anon key and the service-role key', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      for (const apikey of [ctx.secrets.anonKey, ctx.secrets.serviceRoleKey]) {
        const response = await passwordGrant({ email: user.email, password: user.password }, { apikey });
        expect(response.statusCode).toBe(200);
      }
    });
  });

  describe('refresh_token grant', () => {
    it('rotates: a new refresh token for the same session, the presented one marked replaced', async () => {
      const user = await createUser(ctx, { role: 'assessor' });
      const first = await signIn(user);
      const response = await refreshGrant(first.refresh_token);
      expect(response.statusCode, response.body).toBe(200);
      const second = response.json();
      expect(second).toMatchObject({ token_type: 'bearer', expires_in: 3600, user: { id: user.id, email: user.email } });
      expect(second.refresh_token).not.toBe(first.refresh_token);
      const keys = createLocalJWKSet({ keys: [ctx.secrets.signingKey.publicJwk] });
      const a = (await jwtVerify(first.access_token, keys)).payload;
      const b = (await jwtVerify(second.access_token, keys)).payload;
      expect(b['session_id']).toBe(a['session_id']);
      const old = await ctx.db.selectFrom('auth_refresh_tokens').selectAll().where('token_hash', '=', sha256(first.refresh_token)).executeTakeFirstOrThrow();
      expect(old.replaced_at).not.toBeNull();
      const fresh = await ctx.db.selectFrom('auth_refresh_tokens').selectAll().where('token_hash', '=', sha256(second.refresh_token)).executeTakeFirstOrThrow();
      expect(fresh.replaced_at).toBeNull();
      expect((await me(second.access_token)).statusCode).toBe(200);
      // Rotation goes on: the new token is itself good for one refresh.
      expect((await refreshGrant(second.refresh_token)).statusCode).toBe(200);
    });

    it('treats reuse of a rotated token as theft: invalid_grant, the session revoked, its newer tokens dead', async () => {
      const user = await createUser(ctx, { role: 'assessor' });
      const first = await signIn(user);
      const second = (await refreshGrant(first.refresh_token)).json();
      expect((await me(second.access_token)).statusCode).toBe(200); // cached as valid by the resolver

      const reuse = await refreshGrant(first.refresh_token);
      expect(reuse.statusCode).toBe(400);
      expect(reuse.json().error).toBe('invalid_grant');
      const sessions = await ctx.db.selectFrom('auth_sessions').select(['revoked_at', 'revoked_reason']).where('user_id', '=', user.id).execute();
      expect(sessions).toHaveLength(1);
      expect(sessions[0]!.revoked_at).not.toBeNull();
      const newer = await refreshGrant(second.refresh_token);
      expect(newer.statusCode).toBe(400);
      expect(newer.json().error).toBe('invalid_grant');
      expect((await me(second.access_token)).statusCode).toBe(401);
    });

    it('lets exactly one of two concurrent refreshes of the same token succeed', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      const first = await signIn(user);
      const answers = await Promise.all([refreshGrant(first.refresh_token), refreshGrant(first.refresh_token)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
      const children = await ctx.db
        .selectFrom('auth_refresh_tokens as t')
        .innerJoin('auth_sessions as s', 's.id', 't.session_id')
        .select('t.id')
        .where('s.user_id', '=', user.id)
        .execute();
      expect(children).toHaveLength(2); // the original and one successor, never two successors
    });

    // A second connection holds the row lock: both engines are PostgreSQL servers with real sessions.
    it(
      'a refresh that loses the claim to a concurrent rotation is a reuse: refused, and the session revoked',
      async () => {
        const user = await createUser(ctx, { role: 'reviewer' });
        const first = await signIn(user);
        let pending: ReturnType<typeof refreshGrant> | undefined;
        await ctx.db.transaction().execute(async (trx) => {
          // The rival rotation: claimed, not yet committed, so the refresh below still reads the token as unused.
          await trx.updateTable('auth_refresh_tokens').set({ replaced_at: new Date() }).where('token_hash', '=', sha256(first.refresh_token)).execute();
          pending = refreshGrant(first.refresh_token);
          // Commit only once the refresh waits on the row lock, i.e. it has read the token and reached the claim.
          for (let i = 0; i < 100; i += 1) {
            const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`.execute(ctx.db);
            if (waiting.rows[0]!.n > 0) return;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          throw new Error('the refresh never reached the claim');
        });
        const response = await pending!;
        expect(response.statusCode).toBe(400);
        expect(response.json().error_code).toBe('refresh_token_already_used');
        const session = await ctx.db.selectFrom('auth_sessions').select('revoked_reason').where('user_id', '=', user.id).executeTakeFirstOrThrow();
        expect(session.revoked_reason).toBe('refresh_token_reuse');
      },
    );

    it('refuses an expired refresh token', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      const first = await signIn(user);
      await ctx.db
        .updateTable('auth_refresh_tokens')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('token_hash', '=', sha256(first.refresh_token))
        .execute();
      const response = await refreshGrant(first.refresh_token);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('invalid_grant');
    });

    it('refuses a refresh token of a revoked session', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      const first = await signIn(user);
      await ctx.db.updateTable('auth_sessions').set({ revoked_at: new Date(), revoked_reason: 'test' }).where('user_id', '=', user.id).execute();
      const response = await refreshGrant(first.refresh_token);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('invalid_grant');
    });

    it('refuses a refresh token of a deactivated user (interface 5.8)', async () => {
      const user = await createUser(ctx, { role: 'reviewer' });
      const first = await signIn(user);
      await ctx.db.updateTable('users').set({ active: false }).where('id', '=', user.id).execute();
      const response = await refreshGrant(first.refresh_token);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('invalid_grant');
      // Nothing was rotated: the refusal changed no state.
      const row = await ctx.db.selectFrom('auth_refresh_tokens').select('replaced_at').where('token_hash', '=', sha256(first.refresh_token)).executeTakeFirstOrThrow();
      expect(row.replaced_at).toBeNull();
    });

    it('refuses an unknown refresh token with invalid_grant and a missing one with invalid_request', async () => {
      const unknown = await refreshGrant('not-a-token-we-issued');
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().error).toBe('invalid_grant');
      for (const value of [undefined, '', 42]) {
        const response = await refreshGrant(value);
        expect(response.statusCode, String(value)).toBe(400);
        expect(response.json().error).toBe('invalid_request');
      }
    });

    it('keeps refresh tokens of other users and enterprises apart (a token names its own session)', async () => {
      const enterprise = await createEnterprise(ctx);
      const a = await createUser(ctx, { role: 'reviewer', enterpriseId: enterprise.id });
      const b = await createUser(ctx, { role: 'reviewer' });
      const tokensA = await signIn(a);
      await signIn(b);
      const refreshed = (await refreshGrant(tokensA.refresh_token)).json();
      expect(refreshed.user.id).toBe(a.id);
    });
  });
});
