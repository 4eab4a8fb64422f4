import { SignJWT, errors, jwtVerify } from 'jose';
import type { Kysely } from 'kysely';
import { loadOrCreateServiceKey } from '../../platform/auth/secrets.js';
import type { DB } from '../../platform/db/schema.js';
import { NOTIFICATION_KINDS, type NotificationKind } from '../../platform/db/tables/notifications.js';

/**
 * The one-click unsubscribe links of notification mail (RFC 8058): a token signed with HMAC-SHA256 by a key
 * of the service's own (platform_secrets, generated on first use), naming the enterprise, the person and the
 * kinds the mail was about. Nothing is stored per mail; the link works as long as the key is kept, and can
 * do one thing only: turn those kinds off for that person (which the person can turn back on).
 */

const KEY_NAME = 'notifications.unsubscribe_key';
const AUDIENCE = 'notifications.unsubscribe';

export interface UnsubscribeClaims {
  enterpriseId: string;
  userId: string;
  kinds: NotificationKind[];
}

export function createUnsubscribeTokens(db: Kysely<DB>) {
  let key: Promise<Uint8Array> | null = null;
  const keyOf = () => {
    key ??= loadOrCreateServiceKey(db, KEY_NAME).then((value) => Buffer.from(value, 'base64url'));
    // A failed load (the database away) is tried again next time.
    key.catch(() => (key = null));
    return key;
  };
  return {
    async sign(claims: UnsubscribeClaims): Promise<string> {
      return new SignJWT({ e: claims.enterpriseId, k: claims.kinds })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.userId)
        .setAudience(AUDIENCE)
        .sign(await keyOf());
    },

    /** The claims of a token this service signed; null for anything else (forged, altered, of another key). */
    async verify(token: string): Promise<UnsubscribeClaims | null> {
      try {
        const { payload } = await jwtVerify(token, await keyOf(), { audience: AUDIENCE, algorithms: ['HS256'] });
        const kinds = payload['k'];
        if (typeof payload['e'] !== 'string' || typeof payload.sub !== 'string' || !Array.isArray(kinds) || kinds.length === 0) return null;
        if (!kinds.every((kind) => (NOTIFICATION_KINDS as readonly unknown[]).includes(kind))) return null;
        return { enterpriseId: payload['e'], userId: payload.sub, kinds: kinds as NotificationKind[] };
      } catch (error) {
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
}

export type UnsubscribeTokens = ReturnType<typeof createUnsubscribeTokens>;
