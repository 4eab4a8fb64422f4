import { AuthClient } from '@supabase/auth-js';
import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_PUBLIC_URL, createTestContext } from '../support/app.js';
import { scratchDir } from '../support/scratch-dir.js';
import { bearer, createUser, tokenFor } from '../support/factories.js';
import { providerCalls } from '../support/provider.js';
import { auditEntries } from '../support/audit.js';
import { decodeQuotedPrintable, eventually, linkOf, startSmtpReceiver } from '../support/smtp.js';

const authClient = (url: string, anonKey: string) =>
  new AuthClient({ url, headers: { apikey: anonKey }, persistSession: false, autoRefreshToken: false, fetch });

describe('password recovery (resetPasswordForEmail, verifyOtp recovery, updateUser)', async () => {
  const smtp = await startSmtpReceiver();
  const ctx = await createTestContext({ env: { SMTP_URL: smtp.url, RATE_LIMIT_RECOVERY_PER_HOUR: '3' } });
  let url = '';
  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/auth/v1`;
  });
  const { me, anon } = providerCalls(ctx);
  const recover = (email: string) => ctx.app.inject({ method: 'POST', url: '/auth/v1/recover', headers: anon, payload: { email } });

  it('an unknown e-mail gets exactly the answer of a known one, and no mail', async () => {
    const user = await createUser(ctx, { role: 'reviewer' });
    const unknown = await recover('nobody-here@example.test');
    const known = await recover(user.email);
    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect(unknown.headers['content-type']).toBe(known.headers['content-type']);
    await eventually(() => smtp.received.find((m) => m.to.includes(user.email)), 'the recovery mail');
    expect(smtp.received.filter((m) => m.to.includes('nobody-here@example.test'))).toHaveLength(0);
    expect(await ctx.db.selectFrom('mail_outbox').select('id').where('recipient', '=', 'nobody-here@example.test').execute()).toHaveLength(0);
  });

  it('the recovery link signs in, the new password ends the other sessions, the old one stops working', async () => {
    const user = await createUser(ctx, { role: 'assessor' });
    const elsewhere = await authClient(url, ctx.secrets.anonKey).signInWithPassword({ email: user.email, password: user.password });
    expect(elsewhere.error).toBeNull();
    const auth = authClient(url, ctx.secrets.anonKey);
    expect((await auth.resetPasswordForEmail(user.email, { redirectTo: `${TEST_PUBLIC_URL}/reset` })).error).toBeNull();
    const mail = await eventually(() => smtp.received.find((m) => m.to.includes(user.email)), 'the recovery mail');
    const link = linkOf(mail, TEST_PUBLIC_URL);
    expect(link).toMatchObject({ type: 'recovery', redirectTo: `${TEST_PUBLIC_URL}/reset` });
    const row = await ctx.db.selectFrom('auth_one_time_tokens').select(['created_at', 'expires_at']).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBe(3600 * 1000);

    const verified = await auth.verifyOtp({ token_hash: link.token, type: 'recovery' });
    expect(verified.error).toBeNull();
    expect((await auth.updateUser({ password: 'recovered-passphrase' })).error).toBeNull();
    expect((await me(elsewhere.data.session!.access_token)).statusCode).toBe(401);
    expect((await me(verified.data.session!.access_token)).statusCode).toBe(200);
    expect((await authClient(url, ctx.secrets.anonKey).signInWithPassword({ email: user.email, password: user.password })).error).not.toBeNull();
    expect((await authClient(url, ctx.secrets.anonKey).signInWithPassword({ email: user.email, password: 'recovered-passphrase' })).error).toBeNull();
    // The change is audited in the user's enterprise trail.
    const audit = await auditEntries(ctx, { entityId: user.id, action: 'update' });
    expect(audit.map((a) => [a.enterprise_id, (a.action_details as { change?: string }).change])).toContainEqual([user.enterpriseId, 'password_changed']);
  });

  it('a weak password is refused with weak_password', async () => {
    const user = await createUser(ctx, { role: 'assessor' });
    const auth = authClient(url, ctx.secrets.anonKey);
    await auth.signInWithPassword({ email: user.email, password: user.password });
    const result = await auth.updateUser({ password: 'short' });
    expect(result.error).toMatchObject({ status: 422, code: 'weak_password' });
  });

  it('redirect_to off the allow-list is refused, for a known and an unknown e-mail alike', async () => {
    const user = await createUser(ctx, { role: 'assessor' });
    for (const email of [user.email, 'stranger@example.test']) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: `/auth/v1/recover?redirect_to=${encodeURIComponent('https://evil.example/')}`,
        headers: anon,
        payload: { email },
      });
      expect(response.statusCode).toBe(400);
    }
  });

  it('is limited per e-mail, and an unknown e-mail meets the same limit', async () => {
    for (const email of [`limited-${crypto.randomUUID().slice(0, 6)}@example.test`, (await createUser(ctx, { role: 'reviewer' })).email]) {
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await recover(email)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
    }
  });
});

describe('mail without SMTP_URL: .eml files under DATA_DIR/mail', async () => {
  const dataDir = scratchDir('risk-mail');
  const ctx = await createTestContext({ env: { DATA_DIR: dataDir } });
  let url = '';
  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/auth/v1`;
  });

  it('an invitation is written as an .eml file whose link works the same way', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/admin/enterprises/${admin.enterpriseId}/users`,
      headers: bearer(await tokenFor(ctx, admin)),
      payload: { email: 'offline@example.test', full_name: 'Off Line', role: 'assessor' },
    });
    expect(response.statusCode).toBe(201);
    const dir = join(dataDir, 'mail');
    const file = await eventually(() => {
      try {
        return readdirSync(dir).find((name) => name.endsWith('.eml'));
      } catch {
        return undefined;
      }
    }, 'the .eml file');
    const mail = { decoded: decodeQuotedPrintable(readFileSync(join(dir, file), 'utf8')) };
    expect(mail.decoded).toContain('To: offline@example.test');
    const link = linkOf(mail, TEST_PUBLIC_URL);
    const auth = authClient(url, ctx.secrets.anonKey);
    expect((await auth.verifyOtp({ token_hash: link.token, type: 'invite' })).error).toBeNull();
    expect((await auth.updateUser({ password: 'offline-passphrase' })).error).toBeNull();
    expect((await authClient(url, ctx.secrets.anonKey).signInWithPassword({ email: 'offline@example.test', password: 'offline-passphrase' })).error).toBeNull();
  });
});
