import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, expect } from 'vitest';

export interface ReceivedMail {
  to: string[];
  raw: string;
  /** The message with quoted-printable soft breaks and escapes undone, enough to read its text and links. */
  decoded: string;
}

/** Undoes quoted-printable (RFC 2045 6.7) over the whole message: soft line breaks, then =XX escapes. */
export function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * A real SMTP receiver on loopback (no TLS, credentials checked), for the mail suites. `port` reuses a
 * port (a server that "comes back"); 0 picks a free one.
 */
export async function startSmtpReceiver(options: { port?: number; user?: string; pass?: string } = {}) {
  const received: ReceivedMail[] = [];
  const user = options.user ?? 'mailer';
  const pass = options.pass ?? 'mailer-secret';
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === pass) return callback(null, { user });
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, decoded: decodeQuotedPrintable(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  let closed = false;
  const close = () =>
    closed ? Promise.resolve() : new Promise<void>((resolve) => { closed = true; server.close(() => resolve()); });
  afterAll(close);
  return { received, port, url: `smtp://${user}:${pass}@127.0.0.1:${port}`, close };
}

/** Polls until `check` holds (a mail arrives off the request): fails after 15 s, never asserts a duration. */
export async function eventually<T>(check: () => Promise<T | undefined | false> | T | undefined | false, what: string): Promise<T> {
  for (let i = 0; i < 300; i += 1) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect.fail(`timed out waiting for ${what}`);
}

/** The one-time link of a mail: its token, type and redirect. */
export function linkOf(mail: { decoded: string }, publicUrl: string) {
  const match = new RegExp(`${publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/auth/v1/verify\\?[^\\s"<]+`).exec(mail.decoded);
  expect(match, 'the mail carries a verify link').not.toBeNull();
  const url = new URL(match![0].replace(/&amp;/g, '&'));
  return { url: url.toString(), token: url.searchParams.get('token')!, type: url.searchParams.get('type')!, redirectTo: url.searchParams.get('redirect_to')! };
}
