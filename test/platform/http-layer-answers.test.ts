import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { bearer, createUser, tokenFor } from '../support/factories.js';
import { providerCalls } from '../support/provider.js';

/** What the HTTP layer answers before any operation runs: another method (405), oversized headers (431). */
describe('another method on a known path: 405 with Allow; an unknown path: 404', async () => {
  const ctx = await createTestContext();

  it('on the API (past the gate), the provider, the health route and the console', async () => {
    const token = await tokenFor(ctx, await createUser(ctx, { role: 'admin' }));
    const cases: { method: 'DELETE' | 'PUT' | 'POST' | 'GET' | 'PATCH'; url: string; headers?: Record<string, string>; allow: string }[] = [
      { method: 'DELETE', url: '/api/v1/me', headers: bearer(token), allow: 'GET, HEAD' },
      { method: 'PUT', url: '/api/v1/bras', headers: bearer(token), allow: 'GET, HEAD, POST' },
      { method: 'PATCH', url: `/api/v1/bras/${crypto.randomUUID()}/approve`, headers: bearer(token), allow: 'POST' },
      { method: 'GET', url: '/auth/v1/token', headers: { ...providerCalls(ctx).anon, accept: 'application/json' }, allow: 'POST' },
      { method: 'DELETE', url: '/health', allow: 'GET, HEAD' },
      { method: 'POST', url: '/', allow: 'GET, HEAD' },
    ];
    for (const { method, url, headers, allow } of cases) {
      const response = await ctx.app.inject({ method, url, ...(headers === undefined ? {} : { headers }) });
      expect(response.statusCode, `${method} ${url}`).toBe(405);
      expect(response.headers['allow'], `${method} ${url}`).toBe(allow);
      expect(response.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED', request_id: response.headers['x-request-id'] });
    }
  });

  it('a path no route has stays 404, whatever the method', async () => {
    const token = await tokenFor(ctx, await createUser(ctx, { role: 'admin' }));
    for (const [method, url] of [['GET', '/api/v1/no-such-things'], ['DELETE', '/api/v1/bras/x/y/z'], ['POST', '/nowhere']] as const) {
      const response = await ctx.app.inject({ method, url, headers: { ...bearer(token), accept: 'application/json' } });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.headers['allow']).toBeUndefined();
      expect(response.json().code).toBe('NOT_FOUND');
    }
  });

  it('without a token the gate answers first (401), as before: a method is no oracle for an anonymous caller', async () => {
    const response = await ctx.app.inject({ method: 'DELETE', url: '/api/v1/me' });
    expect(response.statusCode).toBe(401);
  });
});

describe('headers over the server limit: 431 in the error shape, over a real connection', async () => {
  const ctx = await createTestContext();

  it('answers 431 HEADERS_TOO_LARGE with a request id, not the HTTP server\'s own body', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = request({ port, host: '127.0.0.1', path: '/api/v1/me', headers: { 'x-padding': 'a'.repeat(20_000) } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toContain('application/json');
    const body = JSON.parse(answer.body) as { code: string; request_id: string; error: string };
    expect(body).toMatchObject({ code: 'HEADERS_TOO_LARGE', request_id: answer.headers['x-request-id'] });
    expect(body.error).toContain('16 KiB');
  });
});

describe('the provider\'s admin call with a malformed user id', async () => {
  const ctx = await createTestContext();

  it('answers the provider\'s documented error shape (404 user_not_found), like the rest of /auth/v1', async () => {
    const admin = { ...providerCalls(ctx).anon, ...bearer(ctx.secrets.serviceRoleKey) };
    for (const id of ['not-a-uuid', '123', 'x'.repeat(64)]) {
      const response = await ctx.app.inject({ method: 'PUT', url: `/auth/v1/admin/users/${id}`, headers: admin, payload: { password: 'a brand new secret' } });
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toEqual({ error: 'user_not_found', error_description: 'User not found', error_code: 'user_not_found' });
    }
  });
});
