import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../db/schema.js';
import { loadSigningKeyRing, type SigningKey, type SigningKeyRing } from './signing-keys.js';

/**
 * The embedded identity provider's secrets: the ES256 signing keys, the two API keys and the key of the
 * sign-in devices. Generated ones are kept in the database, so that restarts keep issued tokens valid and
 * every instance on the same database signs and accepts the same tokens.
 */
export interface AuthSecrets {
  /** The key that signs now (as last loaded); `signingKeys` has the whole ring. */
  readonly signingKey: SigningKey;
  signingKeys: SigningKeyRing;
  anonKey: string;
  serviceRoleKey: string;
  /**
   * HMAC key (base64url, 32 bytes) of the sign-in devices (provider/device-cookie.ts, sign-in-origins.ts):
   * signs the device cookies and hashes the origins of recent sign-ins. Never configured, never shown:
   * nobody outside the service needs it, and replacing it only makes every device a new one.
   */
  deviceKey: string;
}

/**
 * Tells the operator what was generated. A secret is passed apart from the message, so that whoever
 * shows it can keep it out of the log stream (see key-notice.ts): only a terminal ever sees it.
 */
export type Announce = (message: string, secret?: string) => void;

async function loadOrCreate(db: Kysely<DB>, name: string, create: () => string, announce: (value: string) => void): Promise<string> {
  const existing = await db.selectFrom('platform_secrets').select('value').where('name', '=', name).executeTakeFirst();
  if (existing !== undefined) return existing.value as string;
  const value = create();
  // Two instances starting together: the first insert wins and both read the winner back.
  const inserted = await db
    .insertInto('platform_secrets')
    .values({ name, value: JSON.stringify(value) })
    .onConflict((oc) => oc.column('name').doNothing())
    .returning('name')
    .executeTakeFirst();
  if (inserted !== undefined) {
    announce(value);
    return value;
  }
  const winner = await db.selectFrom('platform_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return winner.value as string;
}

/**
 * A service's own HMAC key (32 random bytes, base64url) by name, generated on first use and kept in the
 * database like the device key: every instance signs and checks with the same one, and restarts keep what
 * was signed valid. Never configured, never shown.
 */
export function loadOrCreateServiceKey(db: Kysely<DB>, name: string): Promise<string> {
  return loadOrCreate(db, name, () => randomBytes(32).toString('base64url'), () => undefined);
}

/** Sets a value of `platform_secrets` (the table's one writer is this file), whatever it was. */
export async function recordPlatformValue(db: Kysely<DB>, name: string, value: unknown): Promise<void> {
  await db
    .insertInto('platform_secrets')
    .values({ name, value: JSON.stringify(value) })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: JSON.stringify(value) }))
    .execute();
}

const randomKey = (prefix: string) => `${prefix}_${randomBytes(32).toString('base64url')}`;

export const ANON_KEY_NAME = 'auth.anon_key';
export const SERVICE_ROLE_KEY_NAME = 'auth.service_role_key';
export const DEVICE_KEY_NAME = 'auth.device_key';

export async function loadAuthSecrets(db: Kysely<DB>, config: Config, announce: Announce): Promise<AuthSecrets> {
  const signingKeys = await loadSigningKeyRing(db, config.auth.signingKey, (kid) =>
    announce(`Generated the ES256 token signing key ${kid} (kept in the database; rotate with \`npm run keys -- rotate\`).`),
  );
  const anonKey =
    config.auth.anonKey ??
    (await loadOrCreate(db, ANON_KEY_NAME, () => randomKey('anon'), (key) =>
      announce('Generated AUTH_ANON_KEY (the public apikey)', key),
    ));
  const serviceRoleKey =
    config.auth.serviceRoleKey ??
    (await loadOrCreate(db, SERVICE_ROLE_KEY_NAME, () => randomKey('service'), (key) =>
      announce('Generated AUTH_SERVICE_ROLE_KEY (admin key, keep it secret)', key),
    ));
  // Not announced: no operator or client ever uses it.
  const deviceKey = await loadOrCreate(db, DEVICE_KEY_NAME, () => randomBytes(32).toString('base64url'), () => undefined);
  return {
    get signingKey() {
      return signingKeys.current;
    },
    signingKeys,
    anonKey,
    serviceRoleKey,
    deviceKey,
  };
}
