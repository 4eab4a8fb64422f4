import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../db/schema.js';

/**
 * Secrets the embedded identity provider generates at first start: the ES256 signing key and the two
 * API keys. They are kept in the database, so that restarts keep issued tokens valid and every instance
 * on the same database signs and accepts the same tokens.
 */
export interface AuthSecrets {
  signingKey: { kid: string; privateKey: CryptoKey; publicJwk: JWK };
  anonKey: string;
  serviceRoleKey: string;
}

interface StoredSigningKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

async function loadOrCreate<T>(
  db: Kysely<DB>,
  name: string,
  create: () => Promise<T>,
  announce: (value: T) => void,
): Promise<T> {
  const existing = await db.selectFrom('platform_secrets').select('value').where('name', '=', name).executeTakeFirst();
  if (existing !== undefined) return existing.value as T;
  const value = await create();
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
  return winner.value as T;
}

const randomKey = (prefix: string) => `${prefix}_${randomBytes(32).toString('base64url')}`;

export async function loadAuthSecrets(
  db: Kysely<DB>,
  config: Config,
  announce: (message: string) => void,
): Promise<AuthSecrets> {
  const stored = await loadOrCreate<StoredSigningKey>(
    db,
    'auth.signing_key',
    async () => {
      const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
      const kid = randomBytes(8).toString('hex');
      return {
        kid,
        privateJwk: await exportJWK(privateKey),
        publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' },
      };
    },
    (key) => announce(`Generated the ES256 token signing key ${key.kid} (kept in the database).`),
  );
  const anonKey =
    config.auth.anonKey ??
    (await loadOrCreate(db, 'auth.anon_key', async () => randomKey('anon'), (key) =>
      announce(`Generated AUTH_ANON_KEY (the public apikey): ${key}`),
    ));
  const serviceRoleKey =
    config.auth.serviceRoleKey ??
    (await loadOrCreate(db, 'auth.service_role_key', async () => randomKey('service'), (key) =>
      announce(`Generated AUTH_SERVICE_ROLE_KEY (admin key, keep it secret): ${key}`),
    ));
  const privateKey = (await importJWK(stored.privateJwk, 'ES256')) as CryptoKey;
  return { signingKey: { kid: stored.kid, privateKey, publicJwk: stored.publicJwk }, anonKey, serviceRoleKey };
}
