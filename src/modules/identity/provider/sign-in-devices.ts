import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Executor } from '../../../platform/db/schema.js';
import { originOf } from '../../../platform/auth/principal.js';
import { deviceCookieHeader, deviceCookieValues, knownDeviceId, nextDeviceCookie } from './device-cookie.js';
import { findAccountByEmail } from './provider.repository.js';
import { isKnownOrigin, originHashOf } from './sign-in-origins.js';

/** The counter of one account's password sign-ins: the e-mail as the service compares it, hashed so the store never holds it. */
export const signInAccountKey = (email: string) =>
  `sign-in:${createHash('sha256').update(email.trim().toLowerCase()).digest('base64url')}`;

export interface SignInDevicesDeps {
  db: Executor;
  /** AuthSecrets.deviceKey. */
  deviceKey: string;
  /** Where the device cookie is sent: the provider's prefix, so no other route ever sees it. */
  cookiePath: string;
  /** PUBLIC_URL is https: the cookie is Secure (also on any request that arrived over https). */
  secureCookie: boolean;
}

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

/**
 * Which budget a password sign-in spends (decisions.md, "Sign-in from devices seen before"). A device
 * that signed in to the account before, proven by its device cookie (a browser) or by its address and user
 * agent (an API client), spends a budget of its own; every other attempt, and any attempt naming an unknown
 * e-mail, spends the account's. Strangers exhausting the account's budget then do not keep the owner out,
 * while a stolen cookie or a shared address still guesses at one device's pace.
 */
export function createSignInDevices(deps: SignInDevicesDeps) {
  /** The rate-limit counter this attempt is counted under. */
  async function budgetKey(request: FastifyRequest, email: string, now = new Date()): Promise<string> {
    const account = await findAccountByEmail(deps.db, email.trim());
    if (account === undefined) return signInAccountKey(email);
    const device = knownDeviceId(deviceCookieValues(request.headers.cookie), deps.deviceKey, account.id, seconds(now));
    if (device !== null) return `sign-in-device:${device}`;
    const origin = originOf(request);
    if (await isKnownOrigin(deps.db, deps.deviceKey, account.id, origin, now)) {
      return `sign-in-origin:${account.id}:${originHashOf(deps.deviceKey, origin)}`;
    }
    return signInAccountKey(email);
  }

  /**
   * After a successful sign-in (a password, or a followed invitation or recovery link): this browser is a
   * device of the account from now on. Its cookie keeps the other accounts that signed in on it.
   */
  function rememberDevice(request: FastifyRequest, reply: FastifyReply, userId: string, now = new Date()): void {
    const next = nextDeviceCookie(deviceCookieValues(request.headers.cookie), deps.deviceKey, userId, seconds(now));
    const secure = deps.secureCookie || request.protocol === 'https';
    reply.header('set-cookie', deviceCookieHeader(next.value, next.maxAgeSeconds, { path: deps.cookiePath, secure }));
  }

  return { budgetKey, rememberDevice };
}

export type SignInDevices = ReturnType<typeof createSignInDevices>;
