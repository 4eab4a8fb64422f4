import { AuthClient } from '@supabase/auth-js';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MailDelivery } from '../../src/platform/mail/delivery.js';
import { TEST_PUBLIC_URL, createTestContext } from '../support/app.js';
import { bearer, createUser, tokenFor } from '../support/factories.js';
import { providerCalls } from '../support/provider.js';
import { eventually, linkOf, startSmtpReceiver } from '../support/smtp.js';

/** Invitations by e-mail through a real SMTP receiver, followed with @supabase/auth-js unchanged. */
describe('invitations: mail, link, password', async () => {
  const smtp = await startSmtpReceiver();
  const ctx = await createTestContext({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Risk Desk <desk@service.test>' } });
  let url = '';
  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/auth/v1`;
  });
  const client = () => new AuthClient({ url, headers: { apikey: ctx.secrets.anonKey }, persistSession: false, autoRefreshToken: false, fetch });
  const { me, passwordGrant } = providerCalls(ctx);

  async function invite(role: 'assessor' | 'reviewer' = 'assessor') {
    const admin = await createUser(ctx, { role: 'admin', fullName: 'Chris Admin' });
    const email = `${crypto.randomUUID().slice(0, 8)}@example.test`;
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/admin/enterprises/${admin.enterpriseId}/users`,
      headers: bearer(await tokenFor(ctx, admin)),
      payload: { email, full_name: 'Dana Lee', role },
    });
    expect(response.statusCode, response.body).toBe(201);
    const mail = await eventually(() => smtp.received.find((m) => m.to.includes(email)), 'the invitation mail');
    return { admin, email, created: response.json().data, mail };
  }

  it('adding a user sends one invitation mail naming the enterprise and the inviter, with a link and no password', async () => {
    const { admin, email, created, mail } = await invite();
    expect(created.invitation.sent_at).toEqual(expect.any(String));
    expect(new Date(created.invitation.expires_at).getTime() - new Date(created.invitation.sent_at).getTime()).toBe(7 * 24 * 3600 * 1000);
    const enterprise = await ctx.db.selectFrom('enterprises').select('name').where('id', '=', admin.enterpriseId!).executeTakeFirstOrThrow();
    expect(mail.decoded).toContain(`Subject: You are invited to join ${enterprise.name}`);
    expect(mail.decoded).toContain('Chris Admin has invited you');
    expect(mail.decoded).toContain('From: Risk Desk <desk@service.test>');
    expect(mail.decoded).toMatch(/Content-Type: text\/plain/);
    expect(mail.decoded).toMatch(/Content-Type: text\/html/);
    expect(mail.decoded).not.toMatch(/password:\s*(?!http)\S/i);
    const link = linkOf(mail, TEST_PUBLIC_URL);
    expect(link).toMatchObject({ type: 'invite', redirectTo: TEST_PUBLIC_URL });
    // Only the hash is stored.
    const stored = await ctx.db.selectFrom('auth_one_time_tokens').select('token_hash').where('user_id', '=', created.user_id).executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toBe(link.token);
    expect(smtp.received.filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it('the invited user follows the link with auth-js verifyOtp, sets a password with updateUser and signs in', async () => {
    const { email, created, mail, admin } = await invite();
    const link = linkOf(mail, TEST_PUBLIC_URL);
    const auth = client();
    const verified = await auth.verifyOtp({ token_hash: link.token, type: 'invite' });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.id).toBe(created.user_id);
    expect((await me(verified.data.session!.access_token)).statusCode).toBe(200);
    const updated = await auth.updateUser({ password: 'a-long-new-passphrase' });
    expect(updated.error).toBeNull();
    const signIn = await client().signInWithPassword({ email, password: 'a-long-new-passphrase' });
    expect(signIn.error).toBeNull();
    expect(signIn.data.user?.id).toBe(created.user_id);

    // The admin sees the invitation accepted and its mail sent.
    const list = await ctx.app.inject({ method: 'GET', url: `/api/v1/admin/enterprises/${admin.enterpriseId}/users`, headers: bearer(await tokenFor(ctx, admin)) });
    const row = list.json().data.find((u: { user_id: string }) => u.user_id === created.user_id);
    expect(row.invitation).toMatchObject({ delivery_status: 'sent', delivery_attempts: 1, delivery_error: null });
    expect(row.invitation.accepted_at).toEqual(expect.any(String));
  });

  it('a used link is refused with the provider error (otp_expired) and changes nothing', async () => {
    const { mail, created } = await invite();
    const link = linkOf(mail, TEST_PUBLIC_URL);
    expect((await client().verifyOtp({ token_hash: link.token, type: 'invite' })).error).toBeNull();
    const sessionsBefore = await ctx.db.selectFrom('auth_sessions').select('id').where('user_id', '=', created.user_id).execute();
    const again = await client().verifyOtp({ token_hash: link.token, type: 'invite' });
    expect(again.error).toMatchObject({ status: 403, code: 'otp_expired' });
    expect(again.data.session).toBeNull();
    const sessionsAfter = await ctx.db.selectFrom('auth_sessions').select('id').where('user_id', '=', created.user_id).execute();
    expect(sessionsAfter).toHaveLength(sessionsBefore.length);
    // The browser link answers with the error in the fragment, on the allowed redirect.
    const browser = await ctx.app.inject({ method: 'GET', url: link.url.replace(TEST_PUBLIC_URL, '') });
    expect(browser.statusCode).toBe(303);
    expect(browser.headers.location).toMatch(new RegExp(`^${TEST_PUBLIC_URL}#error=access_denied&error_code=otp_expired`));
  });

  it('an expired link is refused and changes nothing; a link of the other type too', async () => {
    const { mail, created } = await invite();
    const link = linkOf(mail, TEST_PUBLIC_URL);
    const wrongType = await client().verifyOtp({ token_hash: link.token, type: 'recovery' });
    expect(wrongType.error).toMatchObject({ status: 403, code: 'otp_expired' });
    await ctx.db.updateTable('auth_one_time_tokens').set({ expires_at: new Date(Date.now() - 1000) }).where('user_id', '=', created.user_id).execute();
    const expired = await client().verifyOtp({ token_hash: link.token, type: 'invite' });
    expect(expired.error).toMatchObject({ status: 403, code: 'otp_expired' });
    const row = await ctx.db.selectFrom('auth_one_time_tokens').select(['used_at']).where('user_id', '=', created.user_id).executeTakeFirstOrThrow();
    expect(row.used_at).toBeNull();
    expect(await ctx.db.selectFrom('auth_sessions').select('id').where('user_id', '=', created.user_id).execute()).toHaveLength(0);
  });

  it('the mail link signs the browser in and redirects with the session in the fragment (GET /auth/v1/verify)', async () => {
    const { mail } = await invite();
    const link = new URL(linkOf(mail, TEST_PUBLIC_URL).url);
    link.searchParams.set('redirect_to', `${TEST_PUBLIC_URL}/welcome`);
    const response = await ctx.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(response.statusCode).toBe(303);
    const location = new URL(response.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(`${TEST_PUBLIC_URL}/welcome`);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('type')).toBe('invite');
    expect((await me(fragment.get('access_token')!)).statusCode).toBe(200);
  });

  it('redirect_to off the allow-list is refused (400) and leaves the link usable', async () => {
    const { mail } = await invite();
    const link = new URL(linkOf(mail, TEST_PUBLIC_URL).url);
    link.searchParams.set('redirect_to', 'https://evil.example/steal');
    const refused = await ctx.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'invalid_request' });
    expect(refused.headers.location).toBeUndefined();
    const viaClient = await client().verifyOtp({ token_hash: link.searchParams.get('token')!, type: 'invite', options: { redirectTo: 'https://evil.example' } });
    expect(viaClient.error).toMatchObject({ status: 400 });
    expect((await client().verifyOtp({ token_hash: link.searchParams.get('token')!, type: 'invite' })).error).toBeNull();
  });

  it('resending an invitation sends a new mail whose link replaces the first', async () => {
    const { admin, email, created, mail } = await invite('reviewer');
    const first = linkOf(mail, TEST_PUBLIC_URL);
    const resent = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/admin/enterprises/${admin.enterpriseId}/users/${created.user_id}/invitation`,
      headers: bearer(await tokenFor(ctx, admin)),
    });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json().data.invitation.expires_at).toEqual(expect.any(String));
    const second = await eventually(() => smtp.received.filter((m) => m.to.includes(email))[1], 'the second invitation');
    expect((await client().verifyOtp({ token_hash: first.token, type: 'invite' })).error).toMatchObject({ code: 'otp_expired' });
    expect((await client().verifyOtp({ token_hash: linkOf(second, TEST_PUBLIC_URL).token, type: 'invite' })).error).toBeNull();
  });

  it('resending: 409 once the user has a password; a client admin cannot for an admin (403); another enterprise is 404', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const withPassword = await createUser(ctx, { role: 'assessor', enterpriseId: admin.enterpriseId! });
    const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: admin.enterpriseId! });
    const token = await tokenFor(ctx, admin);
    const resend = (enterpriseId: string, userId: string, auth = token) =>
      ctx.app.inject({ method: 'POST', url: `/api/v1/admin/enterprises/${enterpriseId}/users/${userId}/invitation`, headers: bearer(auth) });
    expect((await resend(admin.enterpriseId!, withPassword.id)).json()).toMatchObject({ code: 'INVALID_STATE' });
    expect((await resend(admin.enterpriseId!, otherAdmin.id)).statusCode).toBe(403);
    const stranger = await createUser(ctx, { role: 'admin' });
    expect((await resend(stranger.enterpriseId!, stranger.id)).statusCode).toBe(404);
    const assessor = await createUser(ctx, { role: 'assessor', enterpriseId: admin.enterpriseId! });
    expect((await resend(admin.enterpriseId!, withPassword.id, await tokenFor(ctx, assessor))).statusCode).toBe(403);
  });

  it('a client admin cannot invite an admin (403) and no mail is queued', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/admin/enterprises/${admin.enterpriseId}/users`,
      headers: bearer(await tokenFor(ctx, admin)),
      payload: { email: 'would-be-admin@example.test', full_name: 'Would Be', role: 'admin' },
    });
    expect(response.statusCode).toBe(403);
    expect(await ctx.db.selectFrom('mail_outbox').select('id').where('recipient', '=', 'would-be-admin@example.test').execute()).toHaveLength(0);
  });

  it('a password sign-in still refuses the invited user before they set a password', async () => {
    const { email } = await invite();
    expect((await passwordGrant({ email, password: 'anything-at-all' })).statusCode).toBe(400);
  });
});

describe('invitations: the SMTP server down at send time', async () => {
  // A port that was free a moment ago: the receiver starts on it only later.
  const probe = await startSmtpReceiver();
  const port = probe.port;
  await probe.close();
  let mail: MailDelivery | undefined;
  const ctx = await createTestContext({
    env: { SMTP_URL: `smtp://mailer:mailer-secret@127.0.0.1:${port}` },
    extend: (_app, platform) => {
      mail = platform.mail;
    },
  });

  it('the failure is visible to the admin, and the mail is sent once when the server returns', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const token = await tokenFor(ctx, admin);
    const created = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/admin/enterprises/${admin.enterpriseId}/users`,
      headers: bearer(token),
      payload: { email: 'patient@example.test', full_name: 'Pat Ient', role: 'reviewer' },
    });
    expect(created.statusCode).toBe(201);
    const listed = async () =>
      (await ctx.app.inject({ method: 'GET', url: `/api/v1/admin/enterprises/${admin.enterpriseId}/users`, headers: bearer(token) }))
        .json()
        .data.find((u: { email: string }) => u.email === 'patient@example.test');
    const failed = await eventually(async () => {
      const row = await listed();
      return row.invitation.delivery_status === 'failed' ? row : undefined;
    }, 'the failed attempt');
    expect(failed.invitation.delivery_error).toEqual(expect.any(String));

    const smtp = await startSmtpReceiver({ port });
    // The retry round as the job runs it, at a time past the backoff.
    await mail!.deliverDue(new Date(Date.now() + 3_600_000));
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(['patient@example.test']);
    // Later rounds (and a woken one) never send it again.
    await mail!.deliverDue(new Date(Date.now() + 7_200_000));
    mail!.wake();
    await mail!.settle();
    expect(smtp.received).toHaveLength(1);
    expect((await listed()).invitation).toMatchObject({ delivery_status: 'sent', delivery_error: null });
  });
});
