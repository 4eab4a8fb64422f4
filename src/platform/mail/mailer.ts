import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.js';
import { redactUrl } from '../redact-url.js';

/** One message as the outbox hands it over: plain text plus simple HTML. */
export interface MailMessage {
  /** Stable per outbox row, so that a receiver can tell a resend of the same message from a new one. */
  messageId: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Further header fields (List-Unsubscribe, RFC 8058), as nodemailer takes them. */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Where messages go, for the start-up banner and the demo's report (credentials redacted). */
  readonly destination: string;
  close(): void;
}

/**
 * The one mailer: SMTP when SMTP_URL is set (smtp:// or smtps://, credentials in the URL), otherwise each
 * message written as an .eml file under DATA_DIR/mail, so that a newcomer can onboard someone without a
 * mail server (open the file, follow the link).
 */
export function createMailer(mail: Config['mail']): Mailer {
  if (mail.smtpUrl !== null) return smtpMailer(mail.smtpUrl, mail.from);
  return fileMailer(mail.dir, mail.from);
}

function smtpMailer(url: string, from: string): Mailer {
  // No pooling: the outbox sends in small rounds, and a connection left open would outlive a stopped server.
  const transport = nodemailer.createTransport(url);
  return {
    destination: `SMTP ${redactUrl(url)}`,
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    close: () => transport.close(),
  };
}

function fileMailer(dir: string, from: string): Mailer {
  const render = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    destination: `files under ${dir} (no SMTP_URL)`,
    async send(message) {
      const info = (await render.sendMail({ from, ...message })) as { message: Buffer };
      await mkdir(dir, { recursive: true });
      // Sortable by time, unique by the outbox row: a file is never overwritten by another message.
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = join(dir, `${stamp}-${message.messageId.split('@')[0]}.eml`);
      // Written aside, then renamed: whoever watches the folder never opens a half-written message.
      await writeFile(`${file}.part`, info.message);
      await rename(`${file}.part`, file);
    },
    close: () => render.close(),
  };
}
