import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';

describe('OpenAPI document and docs (STYLE: schemas are the OpenAPI document)', async () => {
  const ctx = await createTestContext();

  it('GET /api/v1/openapi.json answers 200 with an OpenAPI 3.1.0 document, without a token', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: expect.any(String), version: ctx.config.version });
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('lists /health (no security) and /api/v1/me (bearer) with their operation ids and error schema', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/health', '/api/v1/me']));
    const health = document.paths['/health'].get;
    expect(health.operationId).toBe('platform.health');
    expect(health.security).toEqual([]);
    expect(Object.keys(health.responses)).toEqual(expect.arrayContaining(['200', '503']));
    const me = document.paths['/api/v1/me'].get;
    expect(me.responses['200']).toBeDefined();
    expect(me.responses['401']).toBeDefined();
    // The document describes the API only: the document itself and the docs UI are not in it.
    expect(Object.keys(document.paths).some((path) => path.startsWith('/docs') || path === '/api/v1/openapi.json')).toBe(false);
    expect(JSON.stringify(document)).toContain('ErrorBody');
  });

  it('serves the interactive docs as HTML under /docs', async () => {
    let response = await ctx.app.inject({ method: 'GET', url: '/docs' });
    for (let hops = 0; hops < 3 && response.statusCode >= 300 && response.statusCode < 400; hops += 1) {
      const location = new URL(String(response.headers.location), 'http://service.test/docs');
      response = await ctx.app.inject({ method: 'GET', url: location.pathname + location.search });
    }
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toMatch(/swagger|openapi/i);
  });
});

describe('every route is documented (STYLE: summary, operationId, request and response schemas, errors)', async () => {
  const ctx = await createTestContext();
  const document = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  const operations = Object.entries(document.paths as Record<string, Record<string, Record<string, any>>>).flatMap(
    ([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, path, operation })),
  );

  it('documents the administration and identity surface', () => {
    const names = operations.map((o) => o.name);
    for (const expected of [
      'GET /api/v1/admin/enterprises',
      'POST /api/v1/admin/enterprises',
      'PATCH /api/v1/admin/enterprises/{enterprise_id}',
      'GET /api/v1/admin/enterprises/{enterprise_id}/users',
      'POST /api/v1/admin/enterprises/{enterprise_id}/users',
      'DELETE /api/v1/admin/enterprises/{enterprise_id}/users/{user_id}',
      'POST /api/v1/admin/users/{user_id}/entity-roles',
      'GET /api/v1/admin/alerts',
      'PATCH /api/v1/admin/alerts/{alert_id}',
      'GET /api/v1/legal-entities',
      'GET /api/v1/risk-scenarios',
      'POST /auth/v1/token',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it('gives each operation a unique dotted operationId and a summary', () => {
    const ids = operations.map((o) => o.operation['operationId']);
    for (const { name, operation } of operations) {
      expect(operation['operationId'], name).toMatch(/^[a-z_]+(\.[a-z_]+)+$/);
      expect(operation['summary'], name).toEqual(expect.any(String));
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives each /api/v1 operation a success schema and the error responses in the contract shape', () => {
    for (const { name, path, operation } of operations.filter((o) => o.path.startsWith('/api/v1/'))) {
      const statuses = Object.keys(operation['responses']);
      expect(statuses.some((status) => /^2\d\d$/.test(status)), name).toBe(true);
      for (const status of ['400', '401', '403', '429', '500']) expect(statuses, `${name} ${status}`).toContain(status);
      expect(JSON.stringify(operation['responses']['401']), name).toContain('ErrorBody');
    }
  });
});
