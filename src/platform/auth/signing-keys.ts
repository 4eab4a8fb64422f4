import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JSONWebKeySet,
  type JWK,
  type JWTVerifyGetKey,
} from 'jose';
import type { Kysely } from 'kysely';
import type { SigningKeySource } from '../../config.js';
import type { DB, Executor } from '../db/schema.js';
import { ACCESS_TOKEN_TTL_SECONDS, CLOCK_TOLERANCE_SECONDS } from './token-lifetimes.js';

/**
 * The embedded provider's ES256 signing keys (table auth_signing_keys). Exactly one key signs; a key
 * retired by a rotation stays published in the JWKS and keeps verifying until the last token it signed
 * has expired. Every instance on the database reads the same ring: it reloads it every minute (so a
 * rotation reaches its signing within a minute) and at once on a token whose `kid` it does not know
 * (so a token signed by an instance that already rotated verifies everywhere).
 */
export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export interface SigningKeyRing {
  /** The key that signs now, as last loaded (reloaded by `signing()` once stale). */
  readonly current: SigningKey;
  /** The signing key, reloading the ring first when it is over a minute old. */
  signing(): Promise<SigningKey>;
  /** The public keys that verify now (the signing key and retired keys still within their grace). */
  publicKeys(): Promise<JWK[]>;
  /** jose's key lookup for jwtVerify: by `kid`, reloading the ring once on an unknown one. */
  verificationKey: JWTVerifyGetKey;
  /** Reads the ring from the database now. */
  refresh(): Promise<void>;
}

const RELOAD_AFTER_MS = 60_000;
/** An unknown kid reloads the ring at most this often: forged kids must not turn into a query each. */
const UNKNOWN_KID_RELOAD_MS = 5_000;
/**
 * How long a retired key keeps verifying: a token's lifetime, plus the minute other instances may still
 * sign with it before their reload, plus the verifier's clock tolerance.
 */
export const RETIRED_KEY_GRACE_SECONDS = ACCESS_TOKEN_TTL_SECONDS + RELOAD_AFTER_MS / 1000 + CLOCK_TOLERANCE_SECONDS;

interface StoredKey {
  kid: string;
  private_jwk: unknown;
  public_jwk: unknown;
  retired_at: Date | null;
  verify_until: Date | null;
}

/** Public members only, with the kid, alg and use a verifier expects. */
const publicOf = (jwk: JWK, kid: string): JWK => ({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, kid, alg: 'ES256', use: 'sig' });

export async function generateSigningKey(): Promise<{ kid: string; privateJwk: JWK; publicJwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = randomBytes(8).toString('hex');
  return { kid, privateJwk: await exportJWK(privateKey), publicJwk: publicOf(await exportJWK(publicKey), kid) };
}

/**
 * An operator's key: a private JWK (or a JWK Set holding one), or a PEM private key (PKCS#8 or SEC1), on
 * the P-256 curve. Its kid is the JWK's own, or else its RFC 7638 thumbprint, so the same key always has
 * the same kid.
 */
export async function readSuppliedKey(source: SigningKeySource): Promise<{ kid: string; privateJwk: JWK; publicJwk: JWK }> {
  let text: string;
  try {
    text = source.kind === 'env' ? source.text : readFileSync(source.path, 'utf8');
  } catch (error) {
    throw new Error(`${source.variable}: cannot read ${source.kind === 'file' ? source.path : 'the key'} (${(error as Error).message})`);
  }
  let jwk: JWK;
  try {
    const trimmed = text.trim();
    if (trimmed.startsWith('{')) {
      const parsed = JSON.parse(trimmed) as JWK & Partial<JSONWebKeySet>;
      const candidate = Array.isArray(parsed.keys) ? parsed.keys.find((key) => 'd' in key) : parsed;
      jwk = createPrivateKey({ key: candidate as never, format: 'jwk' }).export({ format: 'jwk' }) as JWK;
      if (typeof candidate?.kid === 'string' && candidate.kid !== '') jwk.kid = candidate.kid;
    } else {
      jwk = createPrivateKey({ key: trimmed, format: 'pem' }).export({ format: 'jwk' }) as JWK;
    }
  } catch (error) {
    throw new Error(`${source.variable}: not a private JWK or PEM key (${(error as Error).message})`);
  }
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || jwk.d === undefined) {
    throw new Error(`${source.variable}: the key must be an EC P-256 private key (tokens are ES256)`);
  }
  const kid = jwk.kid ?? (await calculateJwkThumbprint(jwk, 'sha256'));
  const privateJwk: JWK = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d };
  // The public half is derived, never taken on trust from the file.
  const derived = createPublicKey(createPrivateKey({ key: privateJwk as never, format: 'jwk' })).export({ format: 'jwk' }) as JWK;
  return { kid, privateJwk, publicJwk: publicOf(derived, kid) };
}

const activeKey = (db: Executor) =>
  db.selectFrom('auth_signing_keys').select(['kid', 'private_jwk', 'public_jwk']).where('retired_at', 'is', null);

/** Retires the signing key (it verifies for the grace period) and makes `next` the one that signs. */
export async function installSigningKey(
  db: Kysely<DB>,
  next: { kid: string; privateJwk: JWK | null; publicJwk: JWK },
  source: string,
): Promise<{ retired: string | null }> {
  return db.transaction().execute(async (trx) => {
    const current = await activeKey(trx).forUpdate().executeTakeFirst();
    if (current?.kid === next.kid) return { retired: null };
    const now = new Date();
    await trx.deleteFrom('auth_signing_keys').where('verify_until', '<', now).execute();
    if (current !== undefined) {
      await trx
        .updateTable('auth_signing_keys')
        .set({ retired_at: now, verify_until: new Date(now.getTime() + RETIRED_KEY_GRACE_SECONDS * 1000) })
        .where('kid', '=', current.kid)
        .execute();
    }
    await trx
      .insertInto('auth_signing_keys')
      .values({ kid: next.kid, private_jwk: next.privateJwk === null ? null : JSON.stringify(next.privateJwk), public_jwk: JSON.stringify(next.publicJwk), source })
      .onConflict((oc) => oc.column('kid').doUpdateSet({ retired_at: null, verify_until: null, source }))
      .execute();
    return { retired: current?.kid ?? null };
  });
}

/**
 * Loads the ring. With a supplied key, that key signs: at the first start with it, the previous signing
 * key is retired as by a rotation. Without one, a key is generated when the ring is empty (`onGenerated`).
 */
export async function loadSigningKeyRing(
  db: Kysely<DB>,
  supplied: SigningKeySource | null,
  onGenerated: (kid: string) => void,
): Promise<SigningKeyRing> {
  const own = supplied === null ? null : await readSuppliedKey(supplied);
  if (own !== null) {
    await installSigningKey(db, { kid: own.kid, privateJwk: null, publicJwk: own.publicJwk }, supplied!.variable);
  } else if ((await activeKey(db).executeTakeFirst())?.private_jwk === null) {
    // The signing key was an operator's, and none is supplied any more: back to generated keys, with the
    // operator's key retired (verifying its tokens) as by a rotation.
    const generated = await generateSigningKey();
    await installSigningKey(db, generated, 'generated');
    onGenerated(generated.kid);
  } else if ((await activeKey(db).executeTakeFirst()) === undefined) {
    const generated = await generateSigningKey();
    // Two instances starting together: the unique index on the active key lets one insert win.
    const inserted = await db
      .insertInto('auth_signing_keys')
      .values({ kid: generated.kid, private_jwk: JSON.stringify(generated.privateJwk), public_jwk: JSON.stringify(generated.publicJwk), source: 'generated' })
      .onConflict((oc) => oc.doNothing())
      .returning('kid')
      .executeTakeFirst();
    if (inserted !== undefined) onGenerated(generated.kid);
  }

  let current: SigningKey;
  let verifying: JWK[] = [];
  let keySet: JWTVerifyGetKey;
  let loadedAt = 0;
  let lastUnknownReload = 0;
  const ownPrivate = own === null ? null : ((await importJWK(own.privateJwk, 'ES256')) as CryptoKey);

  async function refresh(): Promise<void> {
    const rows: StoredKey[] = await db
      .selectFrom('auth_signing_keys')
      .select(['kid', 'private_jwk', 'public_jwk', 'retired_at', 'verify_until'])
      .where((eb) => eb.or([eb('retired_at', 'is', null), eb('verify_until', '>', new Date())]))
      .orderBy('created_at', 'desc')
      .execute();
    const active = rows.find((row) => row.retired_at === null);
    if (active === undefined) throw new Error('no active signing key: run `npm run keys -- rotate`');
    const publicJwk = active.public_jwk as JWK;
    if (ownPrivate !== null && own !== null && active.kid === own.kid) {
      current = { kid: own.kid, privateKey: ownPrivate, publicJwk };
    } else if (active.private_jwk !== null) {
      current = { kid: active.kid, privateKey: (await importJWK(active.private_jwk as JWK, 'ES256')) as CryptoKey, publicJwk };
    } else {
      // Another instance was started with a key of its own; this one can verify its tokens but not sign.
      throw new Error(`the signing key ${active.kid} was supplied to another instance: supply it here too (AUTH_SIGNING_KEY_FILE)`);
    }
    verifying = rows.map((row) => row.public_jwk as JWK);
    keySet = createLocalJWKSet({ keys: verifying });
    loadedAt = Date.now();
  }
  await refresh();

  const fresh = async () => {
    if (Date.now() - loadedAt > RELOAD_AFTER_MS) await refresh();
  };

  return {
    get current() {
      return current;
    },
    async signing() {
      await fresh();
      return current;
    },
    async publicKeys() {
      await fresh();
      return verifying;
    },
    refresh,
    async verificationKey(header, token) {
      await fresh();
      const known = header.kid === undefined || verifying.some((key) => key.kid === header.kid);
      if (!known && Date.now() - lastUnknownReload > UNKNOWN_KID_RELOAD_MS) {
        lastUnknownReload = Date.now();
        await refresh();
      }
      return keySet(header, token);
    },
  };
}

/** `npm run keys -- rotate`: a new generated key signs from now on; the previous one verifies for the grace period. */
export async function rotateSigningKey(db: Kysely<DB>): Promise<{ kid: string; retired: string | null }> {
  const next = await generateSigningKey();
  const { retired } = await installSigningKey(db, next, 'generated');
  return { kid: next.kid, retired };
}
