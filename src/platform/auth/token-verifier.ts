import { hash } from 'node:crypto';
import {
  createRemoteJWKSet,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import type { Config } from '../../config.js';
import type { AuthSecrets } from './secrets.js';
import { CLOCK_TOLERANCE_SECONDS } from './token-lifetimes.js';

const CACHE_LIMIT = 10_000;

export interface VerifiedClaims {
  sub: string;
  email: string | null;
  /** The token's `email_verified` claim is the boolean true (external mode links accounts only then). */
  emailVerified: boolean;
  sessionId: string | null;
  exp: number;
}

/**
 * What a claim may hold before it reaches a query: a signature vouches for who issued a value, not for
 * its shape. A NUL character (PostgreSQL refuses it in text) or an oversized subject would otherwise
 * turn a validly signed token into a 500.
 */
const MAX_CLAIM_LENGTH = 255;
const usable = (value: unknown, max = MAX_CLAIM_LENGTH): value is string =>
  typeof value === 'string' && value !== '' && value.length <= max && !value.includes('\u0000');

export type TokenVerifier = (token: string) => Promise<VerifiedClaims>;

export class InvalidTokenError extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (value: string) => UUID.test(value);

type KeySource = { algorithms: string[]; key: JWTVerifyGetKey | Uint8Array };

/** The keys and algorithms accepted, pinned by configuration (D4.1): anything else is refused. */
function keySource(config: Config, secrets: AuthSecrets | null): KeySource {
  if (config.auth.mode === 'embedded') {
    if (secrets === null) throw new Error('embedded auth needs its secrets');
    // The ring: the signing key and retired keys within their grace, reloaded on an unknown kid.
    return { algorithms: ['ES256'], key: secrets.signingKeys.verificationKey };
  }
  if (config.auth.jwksUrl !== null) {
    // jose caches the remote set and refetches on an unknown kid (at most every 30 s).
    return {
      algorithms: ['ES256', 'RS256'],
      key: createRemoteJWKSet(new URL(config.auth.jwksUrl), { cacheMaxAge: 10 * 60_000, cooldownDuration: 30_000 }),
    };
  }
  return { algorithms: ['HS256'], key: new TextEncoder().encode(config.auth.jwtSecret ?? '') };
}

/**
 * Verifies signature, iss, aud and exp. An ES256 verify costs about 0.15 ms of the only thread, so
 * verified tokens are cached (bounded, keyed by the token's SHA-256) until they expire. Revocation is
 * not the verifier's business: the principal resolver checks the session on every request.
 */
export function createTokenVerifier(config: Config, secrets: AuthSecrets | null): TokenVerifier {
  const { algorithms, key } = keySource(config, secrets);
  const cache = new Map<string, VerifiedClaims>();

  return async (token) => {
    const cacheKey = hash('sha256', token, 'base64url');
    const cached = cache.get(cacheKey);
    const nowSeconds = Date.now() / 1000;
    if (cached !== undefined) {
      if (cached.exp + CLOCK_TOLERANCE_SECONDS > nowSeconds) return cached;
      cache.delete(cacheKey);
    }
    let payload: JWTPayload;
    try {
      const verifyOptions = {
        algorithms,
        issuer: config.auth.issuer,
        audience: config.auth.audience,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['sub', 'exp'],
      };
      payload =
        key instanceof Uint8Array
          ? (await jwtVerify(token, key, verifyOptions)).payload
          : (await jwtVerify(token, key, verifyOptions)).payload;
    } catch (error) {
      throw new InvalidTokenError(error instanceof Error ? error.message : 'invalid token');
    }
    if (!usable(payload.sub)) throw new InvalidTokenError('unusable sub claim');
    const rawSessionId = payload['session_id'];
    if (rawSessionId !== undefined && rawSessionId !== null && !usable(rawSessionId)) throw new InvalidTokenError('unusable session_id claim');
    // Our own tokens name a user and a session by UUID; anything else was not issued by us (and would
    // otherwise reach a uuid column). External providers choose their own subject format.
    const sessionId = typeof rawSessionId === 'string' ? rawSessionId : null;
    if (config.auth.mode === 'embedded' && (!isUuid(payload.sub) || (sessionId !== null && !isUuid(sessionId)))) {
      throw new InvalidTokenError('subject or session is not a UUID');
    }
    const claims: VerifiedClaims = {
      sub: payload.sub,
      email: usable(payload['email'], 254) ? payload['email'] : null,
      emailVerified: payload['email_verified'] === true,
      sessionId,
      exp: payload.exp as number,
    };
    if (cache.size >= CACHE_LIMIT) {
      // Map keeps insertion order: drop the oldest entry.
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(cacheKey, claims);
    return claims;
  };
}
