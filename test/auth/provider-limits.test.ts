import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { bearer, createUser, tokenFor } from '../support/factories.js';
import { providerCalls } from '../support/provider.js';

/**
 * The provider's calls are counted per address whatever bearer token they carry, and password sign-ins
 * per account too: holding accounts buys no extra password guesses.
 */
describe('identity provider rate limits', async () => {
  const ctx = await createTestContext({
    env: { RATE_LIMIT_PER_MINUTE: '6', RATE_LIMIT_PER_HOUR: '1000', RATE_LIMIT_SIGN_IN_PER_MINUTE: '3' },
  });
  const { anon } = providerCalls(ctx);
  const victim = await createUser(ctx, { role: 'admin' });
  const held = await Promise.all([1, 2, 3].map(() => createUser(ctx, { role: 'reviewer', enterpriseId: victim.enterpriseId! })));
  const heldTokens = await Promise.all(held.map((user) => tokenFor(ctx, user)));

  const guess = (email: string, remoteAddress: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      remoteAddress,
      headers: { ...anon, ...headers },
      payload: { email, password: 'a wrong guess' },
    });

  it('a valid access token does not buy a budget of its own: one address, many accounts, one budget', async () => {
    const address = '198.51.100.10';
    const statuses: number[] = [];
    for (let i = 0; i < 9; i += 1) {
      const token = heldTokens[i % heldTokens.length]!;
      // Different e-mails, so that the per-account limit is not what refuses.
      const response = await guess(`nobody-${i}@example.test`, address, bearer(token));
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 429, 429, 429]);
    // The holders' own API budgets are untouched, and another address still has its own.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(heldTokens[0]!), remoteAddress: address })).statusCode).toBe(200);
    expect((await guess('nobody@example.test', '198.51.100.11')).statusCode).toBe(400);
  });

  it('sign-ins of one account are limited across addresses; other accounts are unaffected', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await guess(victim.email, `203.0.113.${20 + i}`)).statusCode);
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
    // Case and surrounding spaces do not make another account.
    expect((await guess(` ${victim.email.toUpperCase()} `, '203.0.113.40')).statusCode).toBe(429);
    const refused = await guess(victim.email, '203.0.113.41');
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await guess(held[0]!.email, '203.0.113.42')).statusCode).toBe(400);
  });

  it('the other provider calls are counted per address too, with a bearer token', async () => {
    const address = '192.0.2.50';
    const token = heldTokens[1]!;
    const statuses = [];
    for (let i = 0; i < 7; i += 1) {
      const response = await ctx.app.inject({ method: 'GET', url: '/auth/v1/user', remoteAddress: address, headers: { ...anon, ...bearer(token) } });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
  });
});

describe('identity provider responses and bounds', async () => {
  const ctx = await createTestContext();
  const { anon, passwordGrant, signIn, refreshGrant } = providerCalls(ctx);

  it('token responses carry Cache-Control: no-store and Pragma: no-cache (RFC 6749 5.1)', async () => {
    const user = await createUser(ctx, { role: 'assessor' });
    const signedIn = await passwordGrant({ email: user.email, password: user.password });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers['cache-control']).toBe('no-store');
    expect(signedIn.headers['pragma']).toBe('no-cache');
    const refreshed = await refreshGrant(signedIn.json().refresh_token);
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.headers['cache-control']).toBe('no-store');
    const tokens = await signIn(user);
    const me = await ctx.app.inject({ method: 'GET', url: '/auth/v1/user', headers: { ...anon, authorization: `bearer ${tokens.access_token}` } });
    expect(me.statusCode, 'lower-case bearer at the provider').toBe(200);
    expect(me.headers['cache-control']).toBe('no-store');
  });

  it('every input is bounded: an e-mail over 254 characters, an oversized password or refresh token is 400', async () => {
    const long = `${'a'.repeat(9000)}@example.test`;
    const tooLongEmail = await passwordGrant({ email: long, password: 'whatever it is' });
    expect(tooLongEmail.statusCode).toBe(400);
    expect(tooLongEmail.json()).toMatchObject({ error: 'invalid_request' });
    expect((await passwordGrant({ email: 'a@example.test', password: 'p'.repeat(1025) })).statusCode).toBe(400);
    expect((await refreshGrant('r'.repeat(513))).statusCode).toBe(400);
    expect((await passwordGrant({ email: `${'a'.repeat(241)}@example.test`, password: 'whatever it is' })).statusCode).toBe(400);
  });
});
