import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of its
 * bytes; a signature is `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under those bytes. Pure.
 */
const PREFIX = 'whsec_';

export function newSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

function sign(secret: string, content: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(content, 'utf8').digest('base64')}`;
}

/** The three headers of a delivery; several secrets (during a rotation's grace period) give several signatures. */
export function signedHeaders(secrets: readonly string[], id: string, timestampSeconds: number, body: string): Record<string, string> {
  const content = `${id}.${timestampSeconds}.${body}`;
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((secret) => sign(secret, content)).join(' '),
  };
}
