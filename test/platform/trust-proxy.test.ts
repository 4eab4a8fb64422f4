import { describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/app.js';
import { auditEntries } from '../support/audit.js';
import { createUser } from '../support/factories.js';
import { providerCalls } from '../support/provider.js';

/**
 * TRUST_PROXY decides who the client is. Off (the default), X-Forwarded-For is ignored: a client cannot
 * choose its own address. Behind a trusted proxy, the per-address rate limit, the alerts and the audit
 * `ip_address` see the client, not the proxy.
 */
const PROXY = '10.0.0.5';
const CLIENT = '203.0.113.77';

async function failedSignIn(ctx: TestContext, remoteAddress: string, forwardedFor?: string) {
  const user = await createUser(ctx, { role: 'assessor' });
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/auth/v1/token?grant_type=password',
    remoteAddress,
    headers: { ...providerCalls(ctx).anon, ...(forwardedFor !== undefined ? { 'x-forwarded-for': forwardedFor } : {}) },
    payload: { email: user.email, password: 'not the password' },
  });
  expect(response.statusCode).toBe(400);
  const [entry] = await auditEntries(ctx, { userId: user.id, action: 'login' });
  return entry!.ip_address;
}

const anonymous = (ctx: TestContext, remoteAddress: string, forwardedFor: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/v1/me', remoteAddress, headers: { 'x-forwarded-for': forwardedFor } });

describe('TRUST_PROXY unset: the peer is the client', async () => {
  const ctx = await createTestContext({ env: { RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_PER_HOUR: '1000' } });

  it('the audit ip_address is the peer, whatever X-Forwarded-For says', async () => {
    expect(await failedSignIn(ctx, '192.0.2.10', CLIENT)).toBe('192.0.2.10');
  });

  it('a forged X-Forwarded-For does not escape the per-address budget', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await anonymous(ctx, '192.0.2.11', `198.51.100.${i}`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe('TRUST_PROXY=1: one trusted hop', async () => {
  const ctx = await createTestContext({ env: { TRUST_PROXY: '1', RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_PER_HOUR: '1000' } });

  it('the audit ip_address is the client the proxy names (the last X-Forwarded-For entry)', async () => {
    expect(await failedSignIn(ctx, PROXY, `192.0.2.99, ${CLIENT}`)).toBe(CLIENT);
  });

  it('clients behind one proxy have a budget each; one client is limited wherever the proxy forwards it from', async () => {
    const first = [];
    for (let i = 0; i < 4; i += 1) first.push((await anonymous(ctx, PROXY, '198.51.100.20')).statusCode);
    expect(first).toEqual([401, 401, 401, 429]);
    expect((await anonymous(ctx, PROXY, '198.51.100.21')).statusCode).toBe(401);
    expect((await anonymous(ctx, '10.0.0.6', '198.51.100.20')).statusCode).toBe(429);
  });
});

describe('TRUST_PROXY=1 and the alerts', async () => {
  const ctx = await createTestContext({ env: { TRUST_PROXY: '1' } });

  it('alerts name the client address', async () => {
    for (let i = 0; i < 10; i += 1) {
      await ctx.app.inject({ method: 'GET', url: '/api/v1/me', remoteAddress: `10.0.0.${i + 10}`, headers: { 'x-forwarded-for': '198.51.100.30', authorization: 'Bearer not.a.token' } });
    }
    await ctx.monitor.flush();
    const alerts = await ctx.db.selectFrom('system_alerts').select('cause').where('type', '=', 'authentication').execute();
    expect(alerts.map((alert) => alert.cause)).toContain('address:198.51.100.30');
  });
});

describe('TRUST_PROXY as a list of proxy addresses and ranges', async () => {
  const ctx = await createTestContext({ env: { TRUST_PROXY: '10.0.0.0/8,192.0.2.1' } });

  it('a listed proxy is believed; any other peer is the client itself', async () => {
    expect(await failedSignIn(ctx, PROXY, CLIENT)).toBe(CLIENT);
    expect(await failedSignIn(ctx, '192.0.2.1', CLIENT)).toBe(CLIENT);
    expect(await failedSignIn(ctx, '198.51.100.5', CLIENT)).toBe('198.51.100.5');
  });
});
