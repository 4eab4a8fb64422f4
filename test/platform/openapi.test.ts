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
