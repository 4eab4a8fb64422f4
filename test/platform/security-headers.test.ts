import { describe, expect, it } from 'vitest';
import { HSTS_MAX_AGE_SECONDS } from '../../src/platform/http/security-headers.js';
import { createTestContext } from '../support/app.js';

/** Headers that keep a browser from framing, sniffing or leaking what the service answers (issue 44.4). */
function expectProtected(headers: Record<string, unknown>): void {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('no-referrer');
  const csp = String(headers['content-security-policy']);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  expect(csp).toContain("object-src 'none'");
}

describe('security headers on every answer', async () => {
  const ctx = await createTestContext();

  it('the API: a JSON answer, a refusal and an unknown path', async () => {
    const health = await ctx.app.inject({ method: 'GET', url: '/health' });
    expectProtected(health.headers);
    const refused = await ctx.app.inject({ method: 'GET', url: '/api/v1/me' });
    expect(refused.statusCode).toBe(401);
    expectProtected(refused.headers);
    const unknown = await ctx.app.inject({ method: 'GET', url: '/no-such-thing', headers: { accept: 'application/json' } });
    expect(unknown.statusCode).toBe(404);
    expectProtected(unknown.headers);
  });

  it('the console: its page and a console route reloaded', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/' });
    expect(page.headers['content-type']).toContain('text/html');
    expectProtected(page.headers);
    const route = await ctx.app.inject({ method: 'GET', url: '/bras/123', headers: { accept: 'text/html' } });
    expectProtected(route.headers);
  });

  it('the provider and the reference', async () => {
    const settings = await ctx.app.inject({ method: 'GET', url: '/auth/v1/settings' });
    expectProtected(settings.headers);
    const docs = await ctx.app.inject({ method: 'GET', url: '/docs/' });
    expectProtected(docs.headers);
  });

  it('no HSTS when the service is published over http', async () => {
    const health = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(health.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('HSTS when PUBLIC_URL is https', async () => {
  const ctx = await createTestContext({ env: { PUBLIC_URL: 'https://risk.example.com' } });

  it('answers Strict-Transport-Security for a year, subdomains included', async () => {
    const health = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(health.headers['strict-transport-security']).toBe(`max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`);
    expectProtected(health.headers);
  });
});
