import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashOneTimeToken, newOneTimeToken } from '../../src/modules/identity/credentials.js';
import { DEVICE_COOKIE_NAME, DEVICE_LIFETIME_SECONDS, deviceEntry } from '../../src/modules/identity/provider/device-cookie.js';
import { MAX_ORIGINS_PER_USER } from '../../src/modules/identity/provider/sign-in-origins.repository.js';
import { originHashOf } from '../../src/modules/identity/provider/sign-in-origins.js';
import { createMemoryRateLimitStore } from '../../src/platform/http/rate-limit/memory-store.js';
import type { RateLimitStore } from '../../src/platform/http/rate-limit/rate-limit-store.js';
import { createTestContext, type TestContext } from '../support/app.js';
import { bearer, createUser, tokenFor, type TestUser } from '../support/factories.js';

/**
 * Counters whose clock stands still (in the middle of a minute and of an hour), so that a window ending
 * during a test cannot hand the stranger a fresh budget and make a refusal pass.
 */
function frozenClockStore(): RateLimitStore {
  const store = createMemoryRateLimitStore();
  const at = Date.UTC(2031, 0, 1, 0, 30, 30);
  return { consume: (key, windows) => store.consume(key, windows, at), close: () => store.close() };
}

interface Attempt {
  email: string;
  password: string;
  ip: string;
  agent: string;
  cookie?: string;
}

function signIns(ctx: TestContext) {
  const attempt = (a: Attempt) =>
    ctx.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      remoteAddress: a.ip,
      headers: {
        apikey: ctx.secrets.anonKey,
        'user-agent': a.agent,
        ...(a.cookie === undefined ? {} : { cookie: `${DEVICE_COOKIE_NAME}=${a.cookie}` }),
      },
      payload: { email: a.email, password: a.password },
    });
  /** A successful sign-in, and the device cookie it set. */
  const signIn = async (user: TestUser, ip: string, agent: string, cookie?: string) => {
    const response = await attempt({ email: user.email, password: user.password, ip, agent, ...(cookie === undefined ? {} : { cookie }) });
    expect(response.statusCode, response.body).toBe(200);
    const set = response.cookies.find((c) => c.name === DEVICE_COOKIE_NAME);
    expect(set, 'the device cookie').toBeDefined();
    return set!.value;
  };
  let strangers = 0;
  /**
   * A stranger guesses from ever new addresses and agents until the account's budget is spent, then the
   * owner's right password from yet another new device is refused too (the lockout this suite is about).
   */
  const exhaust = async (user: TestUser) => {
    const statuses: number[] = [];
    for (let i = 0; i < 20 && statuses.at(-1) !== 429; i += 1) {
      strangers += 1;
      const response = await attempt({ email: user.email, password: `guess ${i}`, ip: `203.0.113.${strangers % 250}`, agent: `guesser/${strangers}` });
      statuses.push(response.statusCode);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(new Set(statuses.slice(0, -1))).toEqual(new Set([400]));
    const owner = await attempt({ email: user.email, password: user.password, ip: '198.51.100.250', agent: 'a new laptop' });
    expect(owner.statusCode, 'a new device of the owner is refused').toBe(429);
    expect(owner.json()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
  };
  return { attempt, signIn, exhaust };
}

describe('strangers spending an account’s sign-in budget do not keep its owner out (decisions.md, "Sign-in from devices seen before")', async () => {
  const ctx = await createTestContext({
    env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: '3', RATE_LIMIT_SIGN_IN_PER_HOUR: '1000' },
    rateLimitStore: frozenClockStore(),
  });
  const { attempt, signIn, exhaust } = signIns(ctx);

  it('a browser that signed in before gets in with its device cookie, from any address; without it, refused', async () => {
    const owner = await createUser(ctx, { role: 'admin' });
    const cookie = await signIn(owner, '198.51.100.1', 'Firefox/140');
    await exhaust(owner);
    // From another address (the laptop moved): refused without the cookie, let in with it.
    const without = await attempt({ email: owner.email, password: owner.password, ip: '198.51.100.2', agent: 'Firefox/140' });
    expect(without.statusCode).toBe(429);
    const back = await attempt({ email: owner.email, password: owner.password, ip: '198.51.100.2', agent: 'Firefox/140', cookie });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().user.id).toBe(owner.id);
  });

  it('the device cookie is http-only, SameSite=Strict, bound to /auth/v1, expiring, and names no account in clear', async () => {
    const owner = await createUser(ctx, { role: 'assessor' });
    const response = await attempt({ email: owner.email, password: owner.password, ip: '198.51.100.3', agent: 'Chrome/130' });
    expect(response.statusCode).toBe(200);
    const header = String(response.headers['set-cookie']);
    expect(header).toMatch(new RegExp(`^${DEVICE_COOKIE_NAME}=[A-Za-z0-9_.~-]+; Path=/auth/v1; Max-Age=${DEVICE_LIFETIME_SECONDS}; HttpOnly; SameSite=Strict$`));
    expect(header, 'no Secure over plain http').not.toContain('Secure');
    expect(header).not.toContain(owner.id);
    expect(header).not.toContain(encodeURIComponent(owner.email));
    expect(header).not.toContain(owner.email);
    // A refused sign-in and a refresh set no cookie.
    const wrong = await attempt({ email: owner.email, password: 'not it', ip: '198.51.100.3', agent: 'Chrome/130' });
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const refreshed = await ctx.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=refresh_token',
      headers: { apikey: ctx.secrets.anonKey },
      payload: { refresh_token: response.json().refresh_token },
    });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.headers['set-cookie']).toBeUndefined();
  });

  it('an API client gets in from the address and user agent of a recent sign-in; another agent or address does not', async () => {
    const owner = await createUser(ctx, { role: 'admin' });
    await signIn(owner, '192.0.2.10', 'risk-sync/2.1');
    await exhaust(owner);
    const same = await attempt({ email: owner.email, password: owner.password, ip: '192.0.2.10', agent: 'risk-sync/2.1' });
    expect(same.statusCode, same.body).toBe(200);
    expect((await attempt({ email: owner.email, password: owner.password, ip: '192.0.2.10', agent: 'curl/8.5' })).statusCode).toBe(429);
    expect((await attempt({ email: owner.email, password: owner.password, ip: '192.0.2.11', agent: 'risk-sync/2.1' })).statusCode).toBe(429);
  });

  it("a forged, altered, expired, foreign-keyed or another account's cookie counts for nothing", async () => {
    const owner = await createUser(ctx, { role: 'reviewer' });
    const other = await createUser(ctx, { role: 'reviewer', enterpriseId: owner.enterpriseId! });
    const genuine = await signIn(owner, '198.51.100.20', 'Safari/18');
    const othersCookie = await signIn(other, '198.51.100.21', 'Safari/18');
    await exhaust(owner);
    const [tag, device, expires, signature] = genuine.split('.') as [string, string, string, string];
    const now = Math.floor(Date.now() / 1000);
    const worthless = {
      "another account's": othersCookie,
      'altered signature': `${tag}.${device}.${expires}.${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`,
      'altered device id': `${tag}.${randomBytes(16).toString('base64url')}.${expires}.${signature}`,
      'expiry moved later': `${tag}.${device}.${Number(expires) + 1000}.${signature}`,
      'made up': [randomBytes(16), randomBytes(16), now + 1000, randomBytes(32)].map((p) => (typeof p === 'number' ? p : p.toString('base64url'))).join('.'),
      expired: deviceEntry(ctx.secrets.deviceKey, owner.id, now - DEVICE_LIFETIME_SECONDS - 1),
      'signed with another key': deviceEntry(randomBytes(32).toString('base64url'), owner.id, now),
    };
    for (const [what, cookie] of Object.entries(worthless)) {
      const response = await attempt({ email: owner.email, password: owner.password, ip: '198.51.100.22', agent: 'Safari/18', cookie });
      expect(response.statusCode, what).toBe(429);
    }
    // The genuine one, from the same new address, is let in: the refusals above were the cookies'.
    expect((await attempt({ email: owner.email, password: owner.password, ip: '198.51.100.22', agent: 'Safari/18', cookie: genuine })).statusCode).toBe(200);
    // The other account's own cookie still works for the other account: one browser, several accounts.
    expect((await attempt({ email: other.email, password: other.password, ip: '198.51.100.23', agent: 'Safari/18', cookie: othersCookie })).statusCode).toBe(200);
  });

  it('one browser remembers several accounts: the cookie of the second sign-in still proves the first', async () => {
    const ana = await createUser(ctx, { role: 'assessor' });
    const ben = await createUser(ctx, { role: 'assessor', enterpriseId: ana.enterpriseId! });
    const first = await signIn(ana, '198.51.100.30', 'Edge/130');
    const both = await signIn(ben, '198.51.100.30', 'Edge/130', first);
    expect(both.split('~')).toHaveLength(2);
    await exhaust(ana);
    await exhaust(ben);
    for (const user of [ana, ben]) {
      const response = await attempt({ email: user.email, password: user.password, ip: '198.51.100.31', agent: 'Edge/130', cookie: both });
      expect(response.statusCode, user.email).toBe(200);
    }
  });

  it('a device seen before has a budget of its own: a stolen cookie guesses at one device’s pace', async () => {
    const owner = await createUser(ctx, { role: 'admin' });
    const stolen = await signIn(owner, '198.51.100.40', 'Firefox/140');
    const kept = await signIn(owner, '198.51.100.41', 'Firefox/141');
    await exhaust(owner);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await attempt({ email: owner.email, password: `thief ${i}`, ip: `198.18.0.${i}`, agent: 'thief', cookie: stolen });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
    expect((await attempt({ email: owner.email, password: owner.password, ip: '198.18.0.9', agent: 'thief', cookie: stolen })).statusCode).toBe(429);
    // The owner's other browser has its own budget, untouched by the thief's guesses.
    expect((await attempt({ email: owner.email, password: owner.password, ip: '198.51.100.41', agent: 'Firefox/141', cookie: kept })).statusCode).toBe(200);
  });

  it('an address and agent seen before have a budget of their own, spent by wrong passwords from them', async () => {
    const owner = await createUser(ctx, { role: 'admin' });
    await signIn(owner, '192.0.2.50', 'risk-sync/2.1');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push((await attempt({ email: owner.email, password: `typo ${i}`, ip: '192.0.2.50', agent: 'risk-sync/2.1' })).statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
    // Those failures spent the origin's budget, not the account's: a new device still has the account's two left.
    expect((await attempt({ email: owner.email, password: owner.password, ip: '192.0.2.51', agent: 'risk-sync/2.1' })).statusCode).toBe(200);
  });

  it('following a recovery link makes the browser a known device; it resets no count', async () => {
    const owner = await createUser(ctx, { role: 'assessor' });
    await exhaust(owner);
    const { token } = newOneTimeToken();
    await ctx.db
      .insertInto('auth_one_time_tokens')
      .values({ user_id: owner.id, kind: 'recovery', token_hash: hashOneTimeToken(token), enterprise_id: null, invited_by: null, redirect_to: null, expires_at: new Date(Date.now() + 3600_000) })
      .execute();
    const followed = await ctx.app.inject({
      method: 'GET',
      url: `/auth/v1/verify?token=${token}&type=recovery`,
      remoteAddress: '198.51.100.60',
      headers: { 'user-agent': 'Firefox/140' },
    });
    expect(followed.statusCode).toBe(303);
    expect(followed.headers.location).toContain('access_token=');
    const cookie = followed.cookies.find((c) => c.name === DEVICE_COOKIE_NAME);
    expect(cookie).toMatchObject({ path: '/auth/v1', httpOnly: true, sameSite: 'Strict' });
    // The account's count is still spent for every other device...
    expect((await attempt({ email: owner.email, password: owner.password, ip: '198.51.100.61', agent: 'Chrome/130' })).statusCode).toBe(429);
    // ...while this browser signs in with the password, from wherever it is now.
    const back = await attempt({ email: owner.email, password: owner.password, ip: '198.51.100.62', agent: 'Firefox/140', cookie: cookie!.value });
    expect(back.statusCode, back.body).toBe(200);
  });
});

describe('the origins of recent sign-ins are bounded, and the cookie is Secure under https', async () => {
  const ctx = await createTestContext({ env: { PUBLIC_URL: 'https://service.test' } });
  const { attempt, signIn } = signIns(ctx);

  it(`keeps the ${MAX_ORIGINS_PER_USER} most recent origins of a user and forgets older ones`, async () => {
    const user = await createUser(ctx, { role: 'reviewer' });
    const origins = Array.from({ length: MAX_ORIGINS_PER_USER + 2 }, (_, i) => ({ ip: `192.0.2.${100 + i}`, userAgent: `client/${i}` }));
    for (const origin of origins) await signIn(user, origin.ip, origin.userAgent);
    const rows = await ctx.db.selectFrom('auth_sign_in_origins').select('origin_hash').where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(MAX_ORIGINS_PER_USER);
    const kept = new Set(rows.map((row) => row.origin_hash));
    expect(kept.has(originHashOf(ctx.secrets.deviceKey, origins[0]!))).toBe(false);
    expect(kept.has(originHashOf(ctx.secrets.deviceKey, origins.at(-1)!))).toBe(true);
    // Neither an address nor an agent is stored.
    expect(JSON.stringify(rows)).not.toContain('192.0.2');
    expect(JSON.stringify(rows)).not.toContain('client/');
  });

  it('sets the cookie Secure when PUBLIC_URL is https', async () => {
    const user = await createUser(ctx, { role: 'reviewer' });
    const response = await attempt({ email: user.email, password: user.password, ip: '192.0.2.200', agent: 'Chrome/130' });
    expect(response.statusCode).toBe(200);
    expect(String(response.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
  });
});

describe('a burst of refused sign-ins on one account raises one authentication alert for its enterprise (D9.5)', async () => {
  // A budget above the alert's threshold (10 refusals in 5 minutes), so that a stranger spending it is alerted on.
  const ctx = await createTestContext({
    env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: '12', RATE_LIMIT_SIGN_IN_PER_HOUR: '1000' },
    rateLimitStore: frozenClockStore(),
  });
  const { attempt, signIn, exhaust } = signIns(ctx);

  const authenticationAlerts = () => ctx.db.selectFrom('system_alerts').selectAll().where('type', '=', 'authentication').execute();

  it('the burst raises one alert naming the account’s enterprise; further failures, the owner’s included, keep it one', async () => {
    const owner = await createUser(ctx, { role: 'assessor' });
    const cookie = await signIn(owner, '198.51.100.70', 'Firefox/140');
    await exhaust(owner);
    await ctx.monitor.flush();
    let alerts = (await authenticationAlerts()).filter((alert) => alert.cause === `account:${owner.email.toLowerCase()}`);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ severity: 'warning', status: 'open', enterprise_id: owner.enterpriseId });
    expect(alerts[0]!.message).toContain(owner.email.toLowerCase());
    // The owner mistypes from the known browser, then gets in: the burst is still one alert.
    for (let i = 0; i < 2; i += 1) {
      expect((await attempt({ email: owner.email, password: `typo ${i}`, ip: '198.51.100.70', agent: 'Firefox/140', cookie })).statusCode).toBe(400);
    }
    expect((await attempt({ email: owner.email, password: owner.password, ip: '198.51.100.70', agent: 'Firefox/140', cookie })).statusCode).toBe(200);
    await ctx.monitor.flush();
    alerts = (await authenticationAlerts()).filter((alert) => alert.cause === `account:${owner.email.toLowerCase()}`);
    expect(alerts).toHaveLength(1);
    // Nothing was raised under another enterprise for it, nor per address (every guess came from a new one).
    expect((await authenticationAlerts()).filter((alert) => alert.enterprise_id !== owner.enterpriseId)).toEqual([]);
  });

  it("only super admins read the alert: the account's own and another enterprise's admins are refused", async () => {
    const owner = await createUser(ctx, { role: 'reviewer' });
    await exhaust(owner);
    await ctx.monitor.flush();
    const ownAdmin = await createUser(ctx, { role: 'admin', enterpriseId: owner.enterpriseId! });
    const otherAdmin = await createUser(ctx, { role: 'admin' });
    for (const admin of [ownAdmin, otherAdmin]) {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/admin/alerts', headers: bearer(await tokenFor(ctx, admin)) });
      expect(response.statusCode, admin.email).toBe(403);
      expect(response.body).not.toContain(owner.email.toLowerCase());
    }
    const superAdmin = await createUser(ctx, { role: 'super_admin' });
    const listed = await ctx.app.inject({ method: 'GET', url: '/api/v1/admin/alerts?status=open', headers: bearer(await tokenFor(ctx, superAdmin)) });
    const mine = listed.json().data.filter((alert: { message: string }) => alert.message.includes(owner.email.toLowerCase()));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ type: 'authentication', enterprise_id: owner.enterpriseId });
  });
});
