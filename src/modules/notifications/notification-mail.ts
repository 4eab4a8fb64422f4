import { readFileSync } from 'node:fs';
import type { Config } from '../../config.js';
import type { Executor } from '../../platform/db/schema.js';
import type { NotificationKind } from '../../platform/db/tables/notifications.js';
import type { MailTemplates, PrepareMail } from '../../platform/mail/delivery.js';
import { escapeHtml, fillTemplate } from '../../platform/mail/html.js';
import { DIGEST_MAIL, KIND_LABELS, NOTIFICATION_MAIL, type NotificationMailData } from './notification-delivery.js';
import { consolePath } from './notification-link.js';
import { notificationsToMail, type MailedNotification } from './notifications.repository.js';
import { createUnsubscribeTokens } from './unsubscribe-token.js';

/**
 * Notification mail, rendered when the outbox sends it (issue 49): the notifications as they are then (a
 * renamed BRA shows its new name), to a person who is still an active member (else the mail is dropped).
 * Templates are files beside this one (templates/*.txt, templates/*.html; the build copies them), filled with
 * escaping. Dates are written in MAIL_LOCALE and MAIL_TIME_ZONE (the service's, as no enterprise or person
 * has a locale yet). Every mail links to the record in the console, to the person's preferences, and
 * carries a one-click unsubscribe (RFC 8058) from the kinds it tells of.
 */

const template = (name: string) => readFileSync(new URL(`./templates/${name}`, import.meta.url), 'utf8');
const TEMPLATES = {
  notification: { text: template('notification.txt'), html: template('notification.html') },
  digest: { text: template('digest.txt'), html: template('digest.html') },
  item: { text: template('digest-item.txt'), html: template('digest-item.html') },
  unsubscribePage: template('unsubscribe-page.html'),
  unsubscribedPage: template('unsubscribed-page.html'),
};

/** Where a person's mail preferences are, in the console. */
const PREFERENCES_PATH = '/profile';

/** The page behind a mail's unsubscribe link: one button that POSTs the one-click request to `action`. */
export function unsubscribePage(kinds: readonly NotificationKind[], action: string): string {
  return fillTemplate(TEMPLATES.unsubscribePage, { kind_labels: kinds.map((kind) => KIND_LABELS[kind]).join(', '), action }, true);
}

/** What a person sees after the page's button: the kinds turned off, and where to turn them back on. */
export function unsubscribedPage(kinds: readonly NotificationKind[], publicUrl: string): string {
  return fillTemplate(TEMPLATES.unsubscribedPage, { kind_labels: kinds.map((kind) => KIND_LABELS[kind]).join(', '), preferences: `${publicUrl}${PREFERENCES_PATH}` }, true);
}

/** The API route of the one-click unsubscribe (unsubscribe.routes.ts), as the mail links it. */
export const UNSUBSCRIBE_PATH = '/api/v1/notifications/unsubscribe';

export function notificationMailTemplates(db: Executor, config: Pick<Config, 'publicUrl' | 'mail'>): MailTemplates {
  const tokens = createUnsubscribeTokens(db);
  const dates = new Intl.DateTimeFormat(config.mail.locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: config.mail.timeZone });
  const days = new Intl.DateTimeFormat(config.mail.locale, { dateStyle: 'long', timeZone: config.mail.timeZone });
  const zone = config.mail.timeZone === 'UTC' ? ' UTC' : '';
  const url = (path: string) => `${config.publicUrl}${path}`;

  const itemValues = (n: MailedNotification) => ({
    title: n.title,
    kind_label: KIND_LABELS[n.kind],
    when: `${dates.format(n.created_at)}${zone}`,
    link: url(consolePath(n)),
  });

  const prepare = (digest: boolean): PrepareMail => async (row) => {
    const data = row.data as NotificationMailData;
    const notifications = await notificationsToMail(db, data.enterprise_id, data.user_id, data.notification_ids);
    const first = notifications[0];
    if (first === undefined) return { dropped: 'the recipient is no longer an active member, or nothing is left to tell' };
    const kinds = [...new Set(notifications.map((n) => n.kind))] as NotificationKind[];
    const token = await tokens.sign({ enterpriseId: data.enterprise_id, userId: data.user_id, kinds });
    const unsubscribe = url(`${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`);
    const common = {
      lang: config.mail.locale,
      recipient_name: first.recipient_name,
      enterprise_name: first.enterprise_name,
      preferences_link: url(PREFERENCES_PATH),
      unsubscribe_link: unsubscribe,
    };
    const headers = { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
    if (!digest) {
      const values = { ...common, ...itemValues(first), body: first.body ?? '', body_html: first.body === null ? '' : `<p>${escapeHtml(first.body)}</p>` };
      return { subject: first.title, text: fillTemplate(TEMPLATES.notification.text, values, false), html: fillTemplate(TEMPLATES.notification.html, values, true), headers };
    }
    const count = notifications.length === 1 ? '1 notification' : `${notifications.length} notifications`;
    const values = {
      ...common,
      count,
      day: days.format(data.day === undefined ? new Date() : new Date(data.day)),
      kind_labels: kinds.map((kind) => KIND_LABELS[kind]).join(', '),
    };
    return {
      subject: `Your daily digest: ${count} in ${first.enterprise_name}`,
      text: fillTemplate(TEMPLATES.digest.text, { ...values, items: notifications.map((n) => fillTemplate(TEMPLATES.item.text, itemValues(n), false)).join('') }, false),
      html: fillTemplate(TEMPLATES.digest.html, { ...values, items: notifications.map((n) => fillTemplate(TEMPLATES.item.html, itemValues(n), true)).join('') }, true),
      headers,
    };
  };
  return { [NOTIFICATION_MAIL]: prepare(false), [DIGEST_MAIL]: prepare(true) };
}
