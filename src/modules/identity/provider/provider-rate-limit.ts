import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiter } from '../../../platform/http/rate-limit/rate-limit.hook.js';
import type { SignInDevices } from './sign-in-devices.js';

/**
 * Password sign-ins are limited per account as well as per address (the provider's scope counts every
 * call per address, whatever token it carries): a guesser spread over many addresses still meets this
 * one budget. A device that signed in to the account before spends a budget of its own instead
 * (sign-in-devices.ts), so that strangers spending the account's do not keep its owner out. A preHandler
 * of POST /token: after validation, which bounds the e-mail to 254 characters.
 */
export function limitSignInsPerAccount(limiter: RateLimiter, devices: Pick<SignInDevices, 'budgetKey'>) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const grantType = (request.query as { grant_type?: string } | undefined)?.grant_type;
    const email = (request.body as { email?: unknown } | undefined)?.email;
    if (grantType !== 'password' || typeof email !== 'string' || email.trim() === '') return;
    await limiter(request, reply, await devices.budgetKey(request, email));
  };
}

/** The counter of recovery mails asked for one e-mail, hashed like the sign-in key (known or not: the same budget). */
export const recoveryAccountKey = (email: string) =>
  `recover:${createHash('sha256').update(email.trim().toLowerCase()).digest('base64url')}`;

/** POST /recover: per e-mail as well as per address, so that nobody can flood one mailbox from many addresses. */
export function limitRecoveriesPerAccount(limiter: RateLimiter) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const email = (request.body as { email?: unknown } | undefined)?.email;
    if (typeof email !== 'string' || email.trim() === '') return;
    await limiter(request, reply, recoveryAccountKey(email));
  };
}
