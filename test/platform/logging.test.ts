import { Type } from 'typebox';
import { Writable } from 'node:stream';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type AppDeps } from '../../src/app.js';
import { loggerOptions } from '../../src/platform/http/logging.js';
import { createMemoryRateLimitStore } from '../../src/platform/http/rate-limit/memory-store.js';
import { TEST_PASSWORD_COST, createTestContext } from '../support/app.js';
import { createUser, tokenFor } from '../support/factories.js';
import { mountProbes } from './probes.js';

/** pino writes one JSON line per call; the suite reads them back. */
function captureStream() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter((line) => line !== ''));
      done();
    },
  });
  return { stream, lines };
}

const SECRET_PASSWORD = 'Pa55word-never-logged';
const SECRET_API_KEY = 'apikey-value-never-logged-0123456789';
const SECRET_COOKIE = 'session=cookie-never-logged';
const SECRET_QUERY_TOKEN = 'query-token-never-logged';

/** A route that logs carelessly, as a future handler might: the redaction must still hold. */
const mountCarelessLogger: NonNullable<AppDeps['extend']> = async (app, platform) => {
  await mountProbes(app, platform);
  app.post('/api/v1/probe/careless', { schema: { operationId: 'probe.careless', body: Type.Object({}, { additionalProperties: true }) }, config: { public: true } }, async (request) => {
    request.log.info({ headers: request.headers, body: request.body }, 'careless handler log');
    request.log.info({ password: SECRET_PASSWORD, token: 'top-level-token', authorization: 'Bearer top-level' }, 'flat secrets');
    return { data: 'ok' };
  });
};

describe('logs never carry credentials, and carry the request id (D2.1, STYLE: errors and logs)', async () => {
  const ctx = await createTestContext();
  const { stream, lines } = captureStream();
  const rateLimitStore = createMemoryRateLimitStore();
  const app = await buildApp({
    config: ctx.config,
    database: ctx.database,
    secrets: ctx.secrets,
    monitor: ctx.monitor,
    rateLimitStore,
    logger: { ...(loggerOptions('info') as object), stream } as AppDeps['logger'],
    extend: mountCarelessLogger,
    passwordCost: TEST_PASSWORD_COST,
  });
  afterAll(async () => {
    await app.close();
    await rateLimitStore.close();
  });
  beforeEach(() => {
    lines.length = 0;
  });

  const user = await createUser(ctx, { role: 'admin' });
  const token = await tokenFor(ctx, user);
  const text = () => lines.join('\n');
  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  function expectNoSecrets(extra: string[] = []) {
    const all = text();
    expect(lines.length).toBeGreaterThan(0);
    for (const secret of [token, token.split('.')[2] as string, SECRET_PASSWORD, SECRET_API_KEY, SECRET_COOKIE, SECRET_QUERY_TOKEN, ...extra]) {
      expect(all, `the log carries "${secret.slice(0, 20)}…"`).not.toContain(secret);
    }
  }

  it('an authenticated request with apikey and cookie logs none of them, and its lines carry the request id (D2.1)', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { authorization: `Bearer ${token}`, apikey: SECRET_API_KEY, cookie: SECRET_COOKIE, 'x-request-id': 'log-me-1' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expectNoSecrets();
    const mine = parsed().filter((line) => line['reqId'] === 'log-me-1');
    // One access line per request, when it completes (decisions.md, Platform: logs).
    expect(mine.map((line) => line['msg'])).toEqual(['request completed']);
    const access = mine[0] as { req: Record<string, unknown>; res: Record<string, unknown>; responseTime: unknown };
    expect(access.req).toEqual({ method: 'GET', path: '/api/v1/me', ip: '127.0.0.1', operation: 'me.get' });
    expect(access.req['headers']).toBeUndefined();
    expect(access.res).toEqual({ statusCode: 200 });
    expect(access.responseTime).toEqual(expect.any(Number));
  });

  it('the access line has the form of pino\'s lines: level, time, pid and hostname first, then its own members', async () => {
    await app.inject({
      method: 'POST',
      url: '/api/v1/probe/careless',
      headers: { 'content-type': 'application/json', 'x-request-id': 'log-form-1' },
      payload: JSON.stringify({ email: 'someone@example.com' }),
    });
    const pinoLine = parsed().find((line) => line['msg'] === 'flat secrets') as Record<string, unknown>;
    const access = parsed().find((line) => line['reqId'] === 'log-form-1' && line['msg'] === 'request completed') as Record<string, unknown>;
    expect(Object.keys(access)).toEqual(['level', 'time', 'pid', 'hostname', 'reqId', 'req', 'res', 'responseTime', 'msg']);
    expect(Object.keys(pinoLine).slice(0, 4)).toEqual(['level', 'time', 'pid', 'hostname']);
    expect(access).toMatchObject({ level: pinoLine['level'], pid: pinoLine['pid'], hostname: pinoLine['hostname'] });
    expect(access['time']).toEqual(expect.any(Number));
    expect(Math.abs((access['time'] as number) - (pinoLine['time'] as number))).toBeLessThan(5_000);
  });

  it('a request id holding a quote and a backslash still makes an access line that parses (D2.1)', async () => {
    const requestId = 'log-"quoted\\-1';
    const response = await app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${token}`, 'x-request-id': requestId } });
    expect(response.statusCode).toBe(200);
    expect(parsed().filter((line) => line['reqId'] === requestId).map((line) => line['msg'])).toEqual(['request completed']);
  });

  it('a token in the query string is refused and never reaches the log (D4)', async () => {
    const response = await app.inject({ method: 'GET', url: `/api/v1/me?access_token=${SECRET_QUERY_TOKEN}`, headers: { 'x-request-id': 'log-q-1' } });
    expect(response.statusCode).toBe(400);
    expectNoSecrets();
    expect(parsed().some((line) => line['reqId'] === 'log-q-1')).toBe(true);
  });

  it('a handler logging headers and body wholesale still has authorization, apikey, cookie, password and tokens redacted', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/probe/careless',
      headers: {
        authorization: `Bearer ${token}`,
        apikey: SECRET_API_KEY,
        cookie: SECRET_COOKIE,
        'content-type': 'application/json',
        'x-request-id': 'log-careless-1',
      },
      payload: JSON.stringify({
        email: 'someone@example.com',
        password: SECRET_PASSWORD,
        refresh_token: 'refresh-never-logged',
        access_token: 'access-never-logged',
        token: 'plain-token-never-logged',
        new_password: 'new-password-never-logged',
        user: { password: 'nested-password-never-logged' },
      }),
    });
    expect(response.statusCode, response.body).toBe(200);
    expectNoSecrets([
      'refresh-never-logged',
      'access-never-logged',
      'plain-token-never-logged',
      'new-password-never-logged',
      'nested-password-never-logged',
      'top-level-token',
      'Bearer top-level',
    ]);
    const careless = parsed().find((line) => line['msg'] === 'careless handler log') as Record<string, any>;
    expect(careless['reqId']).toBe('log-careless-1');
    // Harmless fields stay readable.
    expect(careless['body']['email']).toBe('someone@example.com');
  });

  it('sign-in with the embedded provider logs neither the password, the apikey nor the issued tokens (D3)', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      headers: { apikey: ctx.secrets.anonKey, 'content-type': 'application/json', 'x-request-id': 'log-signin-1' },
      payload: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { access_token: string; refresh_token: string };
    const issued = [ctx.secrets.anonKey, user.password, body.access_token, body.access_token.split('.')[2] as string, body.refresh_token];
    const refused = await app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      headers: { apikey: ctx.secrets.anonKey, 'content-type': 'application/json' },
      payload: JSON.stringify({ email: user.email, password: SECRET_PASSWORD }),
    });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expectNoSecrets(issued);
    expect(parsed().some((line) => line['reqId'] === 'log-signin-1')).toBe(true);
  });

  it('a 500 logs its cause for operators with the request id, and no credentials (D2.2)', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/probe/crash',
      headers: { authorization: `Bearer ${token}`, apikey: SECRET_API_KEY, 'x-request-id': 'log-500-1' },
    });
    expect(response.statusCode).toBe(500);
    expectNoSecrets();
    const errorLine = parsed().find((line) => line['level'] === 50 && line['reqId'] === 'log-500-1') as Record<string, any>;
    expect(errorLine).toBeDefined();
    expect(errorLine['err']['message']).toContain('boom');
    expect(errorLine['operation']).toBe('probe.crash');
  });
});
