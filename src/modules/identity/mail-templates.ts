import { escapeHtml } from '../../platform/mail/html.js';

/**
 * The identity provider's messages: plain text plus simple HTML, naming the enterprise and the inviter,
 * carrying one one-time link and never a password. Pure, so that what a mail says is tested on its own.
 */

export interface InviteMailData {
  full_name: string;
  /** null: an invitation to administer the platform (a super admin). */
  enterprise_name: string | null;
  inviter_name: string | null;
  role: string;
}

export interface RecoveryMailData {
  full_name: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

function render(subject: string, paragraphs: string[], link: { url: string; label: string }, footer: string): RenderedMail {
  const text = [...paragraphs, '', `${link.label}:`, link.url, '', footer, ''].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">',
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
    `<p style="color: #666; font-size: smaller">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

export function inviteMail(data: InviteMailData, link: string, expiresAt: Date): RenderedMail {
  const where = data.enterprise_name === null ? 'the Risk Assurance platform as a super admin' : `${data.enterprise_name} on Risk Assurance as ${article(data.role)} ${data.role}`;
  const who = data.inviter_name ?? 'An administrator';
  return render(
    data.enterprise_name === null ? 'You are invited to administer Risk Assurance' : `You are invited to join ${data.enterprise_name}`,
    [`Hello ${data.full_name},`, `${who} has invited you to ${where}.`, 'Follow the link below to sign in and choose your password.'],
    { url: link, label: 'Accept the invitation and set your password' },
    `The link works once and expires on ${expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC. If you did not expect this invitation, ignore this message.`,
  );
}

export function recoveryMail(data: RecoveryMailData, link: string, expiresAt: Date): RenderedMail {
  return render(
    'Reset your Risk Assurance password',
    [`Hello ${data.full_name},`, 'Someone asked to reset the password of your account. Follow the link below to choose a new one.'],
    { url: link, label: 'Choose a new password' },
    `The link works once and expires on ${expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC. If you did not ask for this, ignore this message: your password stays as it is.`,
  );
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');
