import { sql } from 'kysely';
import { simpleParser, type ParsedMail } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { insertForMembers } from '../../src/modules/notifications/notifications.repository.js';
import { queueDigests } from '../../src/modules/notifications/digest.repository.js';
import { runDailyDigest } from '../../src/modules/notifications/digest.js';
import { openDatabase } from '../../src/platform/db/engine.js';
import type { NotificationKind } from '../../src/platform/db/tables/notifications.js';
import { announceMail } from '../../src/platform/mail/outbox.js';
import { TEST_PUBLIC_URL, createTestContext } from '../support/app.js';
import { addScenarioLink, createBra, rateBoth } from '../support/bras-factories.js';
import { cast } from '../support/cast.js';
import { assignEntity, createUser, type TestUser } from '../support/factories.js';
import { eventually, startSmtpReceiver, type ReceivedMail } from '../support/smtp.js';

type Preference = { kind: string; delivery: string; source: string };

/**
 * Notification mail (issue 49) through a real SMTP receiver, each message parsed with mailparser: the review
 * loop mails at once, reminders wait for the daily digest (one mail per person and day, never twice, on any
 * instance), preferences and the enterprise's defaults decide, and every mail carries a one-click
 * unsubscribe (RFC 8058). Never to a deactivated member.
 */
describe('notification mail', async () => {
  const smtp = await startSmtpReceiver();
  const ctx = await createTestContext({ env: { SMTP_URL: smtp.url, MAIL_LOCALE: 'en-GB' } });
  const w = await cast(ctx);
  const { call } = w;
  const db = ctx.database.db;

  const parse = (mail: ReceivedMail): Promise<ParsedMail> => simpleParser(mail.raw);
  const mailsTo = (user: TestUser, subject: (s: string) => boolean) =>
    Promise.all(smtp.received.filter((m) => m.to.includes(user.email)).map(parse)).then((all) => all.filter((m) => subject(m.subject ?? '')));
  /** Every queued mail has gone out (or was dropped): nothing more will arrive for what was done so far. */
  const outboxSettled = () =>
    eventually(async () => {
      const pending = await ctx.db.selectFrom('mail_outbox').select('id').where('sent_at', 'is', null).where('dropped_at', 'is', null).execute();
      return pending.length === 0;
    }, 'the outbox to be delivered');
  const headerLine = (mail: ParsedMail, name: string) =>
    mail.headerLines.find((h) => h.key === name.toLowerCase())?.line.replace(/^[^:]+:\s*/, '').replace(/\s+/g, '') ?? null;
  const unsubscribeUrl = (mail: ParsedMail) => /^<(.+)>$/.exec(headerLine(mail, 'List-Unsubscribe') ?? '')?.[1] ?? null;
  const preferences = async (user: TestUser) => (await call(user, 'GET', '/me/notification-preferences')).json().data.preferences as Preference[];
  const preferenceOf = async (user: TestUser, kind: string) => (await preferences(user)).find((p) => p.kind === kind);

  /** An in-progress BRA of the assessor's on the entity, rated, submitted for review. */
  async function submittedBra() {
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.assessor.id, status: 'in_progress' });
    const link = await addScenarioLink(ctx, bra);
    await rateBoth(ctx, link, [3, 3], [2, 2]);
    const submitted = await call(w.assessor, 'POST', `/bras/${bra.id}/submit`);
    expect(submitted.statusCode, submitted.body).toBe(200);
    return bra;
  }

  /** Reminders as the daily rounds write them (through the one notification statement). */
  async function remind(user: TestUser, kind: NotificationKind, title: string) {
    const bra = await createBra(ctx, { enterpriseId: user.enterpriseId!, legalEntityId: w.entity.id, createdBy: w.assessor.id, status: 'in_progress' });
    const written = await insertForMembers(db, user.enterpriseId!, sql`m.user_id = ${user.id}`, null, { kind, bra_id: bra.id, title, body: null, actor_id: null, period: '2031-01-06' });
    expect(written).toBe(1);
    return bra;
  }

  it('a submitted BRA mails its reviewers once, at once: subject, link to the BRA, List-Unsubscribe headers', async () => {
    const bra = await submittedBra();
    await outboxSettled();
    const about = (m: string) => m === `${bra.name} awaits your review`;
    for (const told of [w.reviewer, w.admin]) {
      const mails = await mailsTo(told, about);
      expect(mails, told.role).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail.text).toContain(`${TEST_PUBLIC_URL}/bras/${bra.id}`);
      expect(mail.html).toContain(`href="${TEST_PUBLIC_URL}/bras/${bra.id}"`);
      expect(mail.text).toContain(`Hello ${told.fullName}`);
      expect(headerLine(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      expect(unsubscribeUrl(mail)).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/api/v1/notifications/unsubscribe\\?token=`));
      expect(mail.text).toContain(unsubscribeUrl(mail));
    }
    for (const untold of [w.assessor, w.outsideReviewer, w.otherAdmin]) expect(await mailsTo(untold, about)).toEqual([]);
    const outbox = await ctx.db.selectFrom('mail_outbox').select(['template', 'data']).where('template', '=', 'notification').execute();
    expect(outbox.filter((row) => JSON.stringify(row.data).includes(w.reviewer.id))).toHaveLength(1);
  });

  it('off: no mail, yet the console lists it; digest: not at once', async () => {
    expect((await call(w.reviewer, 'PUT', '/me/notification-preferences', { preferences: [{ kind: 'bra_submitted', delivery: 'off' }] })).statusCode).toBe(200);
    const bra = await submittedBra();
    await outboxSettled();
    const about = (m: string) => m.includes(bra.name);
    expect(await mailsTo(w.reviewer, about)).toEqual([]);
    expect(await mailsTo(w.admin, about)).toHaveLength(1);
    const listed = (await call(w.reviewer, 'GET', '/notifications?page_size=100')).json().data as { bra_id: string }[];
    expect(listed.filter((n) => n.bra_id === bra.id)).toHaveLength(1);

    await call(w.reviewer, 'PUT', '/me/notification-preferences', { preferences: [{ kind: 'bra_submitted', delivery: 'digest' }] });
    const later = await submittedBra();
    await outboxSettled();
    expect(await mailsTo(w.reviewer, (m) => m.includes(later.name))).toEqual([]);
    const row = await ctx.db.selectFrom('notifications').select(['delivery', 'mailed_at']).where('user_id', '=', w.reviewer.id).where('bra_id', '=', later.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ delivery: 'digest', mailed_at: null });
    await call(w.reviewer, 'PUT', '/me/notification-preferences', { preferences: [{ kind: 'bra_submitted', delivery: 'default' }] });
  });

  it('the enterprise’s default applies to those without a choice; a person’s choice overrides it', async () => {
    const defaults = await call(w.admin, 'PUT', '/notification-defaults', { defaults: [{ kind: 'bra_submitted', delivery: 'off' }] });
    expect(defaults.statusCode, defaults.body).toBe(200);
    expect(defaults.json().data.defaults.find((d: Preference) => d.kind === 'bra_submitted')).toEqual({ kind: 'bra_submitted', delivery: 'off', source: 'enterprise' });
    await call(w.admin, 'PUT', '/me/notification-preferences', { preferences: [{ kind: 'bra_submitted', delivery: 'immediate' }] });
    expect(await preferenceOf(w.reviewer, 'bra_submitted')).toEqual({ kind: 'bra_submitted', delivery: 'off', source: 'enterprise' });
    expect(await preferenceOf(w.admin, 'bra_submitted')).toEqual({ kind: 'bra_submitted', delivery: 'immediate', source: 'user' });
    const bra = await submittedBra();
    await outboxSettled();
    expect(await mailsTo(w.reviewer, (m) => m.includes(bra.name))).toEqual([]);
    expect(await mailsTo(w.admin, (m) => m.includes(bra.name))).toHaveLength(1);
    await call(w.admin, 'PUT', '/notification-defaults', { defaults: [{ kind: 'bra_submitted', delivery: 'default' }] });
    await call(w.admin, 'PUT', '/me/notification-preferences', { preferences: [{ kind: 'bra_submitted', delivery: 'default' }] });
    expect(await preferenceOf(w.reviewer, 'bra_submitted')).toEqual({ kind: 'bra_submitted', delivery: 'immediate', source: 'default' });
  });

  it('the daily digest: one mail per person with all their waiting reminders; a second round, a second instance or a restart sends nothing twice', async () => {
    const day = new Date(Date.UTC(2031, 0, 6, 9));
    await remind(w.reviewer, 'action_due_soon', 'Patch the payment gateway is due in 7 days');
    await remind(w.reviewer, 'action_overdue', 'Rotate the HSM keys is overdue');
    await remind(w.assessor, 'control_test_due', 'Test the access review control');
    const gone = await createUser(ctx, { role: 'reviewer', enterpriseId: w.enterprise.id });
    await remind(gone, 'action_due_soon', 'Nobody hears of this one');
    await ctx.db.updateTable('enterprise_members').set({ active: false, deactivated_at: new Date() }).where('user_id', '=', gone.id).execute();
    // Reminders are not mailed at once.
    await outboxSettled();
    expect(await mailsTo(w.reviewer, (s) => s.includes('Patch the payment gateway'))).toEqual([]);

    const queued = await runDailyDigest(db, day, 7);
    expect(queued).toBeGreaterThanOrEqual(2);
    await outboxSettled();
    const digests = (user: TestUser) => mailsTo(user, (s) => s.startsWith('Your daily digest'));
    const [reviewerDigest] = await digests(w.reviewer);
    expect(await digests(w.reviewer)).toHaveLength(1);
    expect(reviewerDigest!.text).toContain('Patch the payment gateway is due in 7 days');
    expect(reviewerDigest!.text).toContain('Rotate the HSM keys is overdue');
    expect(reviewerDigest!.html).toContain('Rotate the HSM keys is overdue');
    expect(reviewerDigest!.text).toMatch(/6 January 2031/);
    expect(unsubscribeUrl(reviewerDigest!)).not.toBeNull();
    expect((await digests(w.assessor))[0]!.text).toContain('Test the access review control');
    expect(await digests(gone)).toEqual([]);

    // The same day again, here, on a second instance (its own pool: another process's), after a restart: nothing.
    expect(await runDailyDigest(db, new Date(day.getTime() + 3_600_000), 7)).toBeNull();
    const second = await openDatabase({ kind: 'postgres', url: ctx.database.url }, { poolSize: 2, connectionTimeoutMs: 60_000 });
    try {
      expect(await runDailyDigest(second.db, new Date(day.getTime() + 7_200_000), 7)).toBeNull();
      // Even a round that ignored the claim finds nothing left: every reminder is marked with its digest.
      expect(await second.db.transaction().execute((trx) => queueDigests(trx, new Date(day.getTime() + 7_200_000)))).toBe(0);
    } finally {
      await second.close();
    }
    // Before the digest hour nothing is claimed; the next day finds nothing new for these people.
    expect(await runDailyDigest(db, new Date(Date.UTC(2031, 0, 7, 6)), 7)).toBeNull();
    expect(await runDailyDigest(db, new Date(Date.UTC(2031, 0, 7, 8)), 7)).toBe(0);
    await outboxSettled();
    expect(await digests(w.reviewer)).toHaveLength(1);
  });

  it('one-click unsubscribe: the form POST turns the kind off; a forged token is refused; the GET page changes nothing', async () => {
    const bra = await submittedBra();
    await outboxSettled();
    const [mail] = await mailsTo(w.reviewer, (s) => s.includes(bra.name));
    const url = new URL(unsubscribeUrl(mail!)!);
    const path = `${url.pathname}${url.search}`;

    const page = await ctx.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<form method="post"');
    expect(page.body).toContain('name="List-Unsubscribe" value="One-Click"');
    expect(await preferenceOf(w.reviewer, 'bra_submitted')).toMatchObject({ delivery: 'immediate' });

    const token = url.searchParams.get('token')!;
    const forged = `${token.slice(0, -4)}${token.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const refused = await ctx.app.inject({ method: 'POST', url: `${url.pathname}?token=${encodeURIComponent(forged)}`, headers: form, payload: 'List-Unsubscribe=One-Click' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await ctx.app.inject({ method: 'GET', url: `${url.pathname}?token=nonsense` })).statusCode).toBe(401);
    expect(await preferenceOf(w.reviewer, 'bra_submitted')).toMatchObject({ delivery: 'immediate' });

    const done = await ctx.app.inject({ method: 'POST', url: path, headers: form, payload: 'List-Unsubscribe=One-Click' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toEqual({ kind: 'bra_submitted', delivery: 'off', kinds: ['bra_submitted'] });
    expect(await preferenceOf(w.reviewer, 'bra_submitted')).toEqual({ kind: 'bra_submitted', delivery: 'off', source: 'user' });
    const audit = await ctx.db.selectFrom('audit_log').select(['user_id', 'entity_type']).where('entity_type', '=', 'notification_preference').where('entity_id', '=', w.reviewer.id).execute();
    expect(audit.length).toBeGreaterThan(0);

    // The page's button, submitted by a browser (which asks for HTML): a confirmation page, not JSON.
    const browserForm = { ...form, accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    const confirmed = await ctx.app.inject({ method: 'POST', url: path, headers: browserForm, payload: 'List-Unsubscribe=One-Click' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.headers['content-type']).toMatch(/^text\/html/);
    expect(confirmed.body).toContain('You are unsubscribed');
    expect(confirmed.body).toContain(`${TEST_PUBLIC_URL}/profile`);
    await call(w.reviewer, 'PUT', '/me/notification-preferences', { preferences: [{ kind: 'bra_submitted', delivery: 'default' }] });
  });

  it('a member deactivated before the mail goes out is not mailed: the mail is dropped', async () => {
    const leaving = await createUser(ctx, { role: 'reviewer', enterpriseId: w.enterprise.id });
    await assignEntity(ctx, leaving, w.entity.id);
    const bra = await createBra(ctx, { enterpriseId: w.enterprise.id, legalEntityId: w.entity.id, createdBy: w.assessor.id, status: 'in_progress' });
    // Written in a transaction of its own (no commit hook wakes the delivery), then the member leaves.
    await db.transaction().execute((trx) =>
      insertForMembers(trx, w.enterprise.id, sql`m.user_id = ${leaving.id}`, null, { kind: 'bra_submitted', bra_id: bra.id, title: `${bra.name} awaits your review`, body: null, actor_id: null }),
    );
    await ctx.db.updateTable('enterprise_members').set({ active: false, deactivated_at: new Date() }).where('user_id', '=', leaving.id).execute();
    announceMail(db);
    const dropped = await eventually(
      () => ctx.db.selectFrom('mail_outbox').select(['dropped_at', 'sent_at']).where('recipient', '=', leaving.email).where('dropped_at', 'is not', null).executeTakeFirst(),
      'the mail to be dropped',
    );
    expect(dropped.sent_at).toBeNull();
    expect(smtp.received.filter((m) => m.to.includes(leaving.email))).toEqual([]);
  });

  it('the preferences API: one entry per kind, 422 on an unknown kind or delivery or a kind named twice, 403 for others on the defaults, no tenant sees another’s', async () => {
    const mine = await preferences(w.assessor);
    expect(mine).toHaveLength(10);
    expect(mine[0]).toEqual({ kind: 'bra_submitted', delivery: 'immediate', source: 'default' });
    expect(mine.find((p) => p.kind === 'action_overdue')).toEqual({ kind: 'action_overdue', delivery: 'digest', source: 'default' });
    for (const body of [
      { preferences: [{ kind: 'weekly_news', delivery: 'off' }] },
      { preferences: [{ kind: 'action_overdue', delivery: 'weekly' }] },
      { preferences: [{ kind: 'action_overdue', delivery: 'off' }, { kind: 'action_overdue', delivery: 'digest' }] },
      { preferences: [] },
    ]) {
      expect((await call(w.assessor, 'PUT', '/me/notification-preferences', body)).statusCode, JSON.stringify(body)).toBe(422);
    }
    expect((await call(w.admin, 'PUT', '/notification-defaults', { defaults: [{ kind: 'nope', delivery: 'off' }] })).statusCode).toBe(422);
    for (const who of [w.assessor, w.reviewer]) {
      expect((await call(who, 'GET', '/notification-defaults')).statusCode).toBe(403);
      expect((await call(who, 'PUT', '/notification-defaults', { defaults: [{ kind: 'action_overdue', delivery: 'off' }] })).statusCode).toBe(403);
    }
    expect((await call(w.superAdmin, 'GET', '/me/notification-preferences')).statusCode).toBe(403);

    // Tenants: our default and our people's choices are ours alone.
    await call(w.admin, 'PUT', '/notification-defaults', { defaults: [{ kind: 'action_overdue', delivery: 'immediate' }] });
    await call(w.assessor, 'PUT', '/me/notification-preferences', { preferences: [{ kind: 'control_test_due', delivery: 'off' }] });
    const theirs = await call(w.otherAdmin, 'GET', '/notification-defaults');
    expect(theirs.json().data.defaults.find((d: Preference) => d.kind === 'action_overdue')).toEqual({ kind: 'action_overdue', delivery: 'digest', source: 'default' });
    expect(await preferenceOf(w.otherAdmin, 'control_test_due')).toEqual({ kind: 'control_test_due', delivery: 'digest', source: 'default' });
    expect(await preferenceOf(w.reviewer, 'action_overdue')).toEqual({ kind: 'action_overdue', delivery: 'immediate', source: 'enterprise' });
    const audited = await ctx.db.selectFrom('audit_log').select('entity_type').where('enterprise_id', '=', w.enterprise.id).where('entity_type', 'in', ['notification_default', 'notification_preference']).execute();
    expect(new Set(audited.map((a) => a.entity_type))).toEqual(new Set(['notification_default', 'notification_preference']));
  });
});
