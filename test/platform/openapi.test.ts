import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
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
    expect(document.components.securitySchemes.apikey).toMatchObject({ type: 'apiKey', in: 'header', name: 'apikey' });
  });

  it('introduces the API in info.description: getting started, the two keys, signing in, roles, errors, rate limits', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(document.info.title).toBe('Risk Assurance Service');
    for (const heading of ['## Getting started', '## The two keys', '## Signing in', '## Roles', '## Errors', '## Rate limits']) {
      expect(document.info.description).toContain(heading);
    }
    // The numbers are those of the running configuration.
    expect(document.info.description).toContain(`${ctx.config.rateLimit.perMinute} requests a minute`);
    expect(document.info.description).toContain('AUTH_ANON_KEY');
  });

  it('lists grant_type with its two values (D3)', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const grantType = document.paths['/auth/v1/token'].post.parameters.find((p: { name: string }) => p.name === 'grant_type');
    expect(grantType.schema.enum).toEqual(['password', 'refresh_token']);
  });

  it('GET / is the console; the reference is at /docs', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('<div id="root">');
  });

  it('names the product and the served document URL on the docs page', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.body).toContain('<title>Risk Assurance Service: API reference</title>');
    const initializer = await ctx.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(initializer.statusCode).toBe(200);
    expect(initializer.body).toContain('"/api/v1/openapi.json"');
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

describe('the docs are not rate-limited (a reader must not use up the allowance for calling the API)', async () => {
  const ctx = await createTestContext({ env: { RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_PER_HOUR: '100' } });

  it('loads /docs, its assets, the document and / many times without a 429 or a counter change', async () => {
    const urls = ['/', '/docs', '/docs/', '/docs/static/swagger-initializer.js', '/docs/static/index.css', '/api/v1/openapi.json'];
    for (let round = 0; round < 5; round += 1) {
      for (const url of urls) {
        const response = await ctx.app.inject({ method: 'GET', url, remoteAddress: '203.0.113.9' });
        expect(response.statusCode, url).toBeLessThan(400);
        expect(response.headers['x-ratelimit-remaining'], url).toBeUndefined();
      }
    }
    // The address still has its whole budget: the first counted request leaves limit - 1.
    const counted = await ctx.app.inject({ method: 'GET', url: '/api/v1/me', remoteAddress: '203.0.113.9' });
    expect(counted.statusCode).toBe(401);
    expect(counted.headers['x-ratelimit-remaining']).toBe('2');
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

  it('describes every success response (never "Default Response") and gives it and every request body an example', () => {
    for (const { name, operation } of operations) {
      // A browser link's success is a redirect (GET /auth/v1/verify answers 303).
      const successes = Object.entries(operation['responses'] as Record<string, any>).filter(([status]) => /^(2\d\d|303)$/.test(status));
      expect(successes.length, name).toBeGreaterThan(0);
      for (const [status, response] of successes) {
        expect(response.description, `${name} ${status}`).toEqual(expect.any(String));
        expect(response.description, `${name} ${status}`).not.toBe('Default Response');
        const media = response.content?.['application/json'];
        if (media !== undefined) expect(media.example ?? media.examples, `${name} ${status} example`).toBeDefined();
      }
      const body = operation['requestBody']?.content?.['application/json'];
      if (body !== undefined) expect(body.example ?? body.examples, `${name} request example`).toBeDefined();
    }
  });

  it('gives every success answer an example in each of its media types (downloads included)', () => {
    for (const { name, operation } of operations) {
      for (const [status, response] of Object.entries(operation['responses'] as Record<string, any>)) {
        if (!/^2\d\d$/.test(status)) continue;
        for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, any>)) {
          expect(media.example ?? media.examples, `${name} ${status} ${type} example`).toBeDefined();
        }
      }
    }
    const register = operations.find((o) => o.name === 'GET /api/v1/risk-register/export')!.operation;
    expect(register['responses']['200'].content['text/csv'].example).toMatch(/^legal_entity,business_unit,bra_id,/);
  });

  it("every JSON example conforms to its answer's schema (what the OpenAPI lint's example check holds)", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: false });
    addFormats.default(ajv);
    ajv.addFormat('binary', true);
    const refused: string[] = [];
    for (const { name, operation } of operations) {
      for (const [status, response] of Object.entries(operation['responses'] as Record<string, any>)) {
        const media = response.content?.['application/json'];
        if (media?.schema === undefined) continue;
        const examples = media.example !== undefined ? [media.example] : Object.values((media.examples ?? {}) as Record<string, { value: unknown }>).map((entry) => entry.value);
        const validate = ajv.compile({ ...media.schema, components: document.components });
        for (const example of examples) if (!validate(example)) refused.push(`${name} ${status}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('declares every error answer as JSON in an error shape, download routes included, and the statuses the HTTP layer sends', () => {
    for (const { name, path, operation } of operations) {
      const responses = operation['responses'] as Record<string, any>;
      for (const [status, response] of Object.entries(responses)) {
        // The health route's 503 is its report (what is down), documented as such.
        if (!/^[45]/.test(status) || (name === 'GET /health' && status === '503')) continue;
        expect(Object.keys(response.content ?? {}), `${name} ${status}`).toEqual(['application/json']);
        const schema = JSON.stringify(response.content['application/json'].schema);
        expect(schema.includes('ErrorBody') || (path.startsWith('/auth/v1/') && schema.includes('error_description')), `${name} ${status}`).toBe(true);
      }
      expect(responses['431'] ?? responses['4XX'], `${name} 431`).toBeDefined();
    }
    const recover = operations.find((o) => o.name === 'POST /auth/v1/recover')!.operation;
    expect(JSON.stringify(recover['responses']['429'])).toContain('ErrorBody');
    const setPassword = operations.find((o) => o.name === 'PUT /auth/v1/admin/users/{user_id}')!.operation;
    expect(JSON.stringify(setPassword['responses']['404'])).toContain('error_description');
  });

  it('states the security of every operation: apikey on /auth/v1 (but the key set), bearer on /api/v1 (but public routes)', () => {
    for (const { name, path, operation } of operations) {
      const schemes = (operation['security'] as Record<string, unknown>[]).flatMap((requirement) => Object.keys(requirement));
      // The key set, the mail's verify link and single sign-on's browser legs (opened by a browser, which has no apikey) are public,
      // as are SAML's SP metadata (read by the IdP and its admins) and ACS (the IdP's form, POSTed by the browser).
      const browserLegs = ['GET /auth/v1/verify', 'GET /auth/v1/sso', 'GET /auth/v1/sso/callback', 'GET /auth/v1/sso/saml/metadata', 'POST /auth/v1/sso/saml/acs'];
      if (path.startsWith('/auth/v1/') && !path.includes('jwks') && !browserLegs.includes(name)) expect(schemes, name).toContain('apikey');
      // The one-click unsubscribe of a notification mail: its signed link is its authority, not a bearer token.
      const unsubscribe = path === '/api/v1/notifications/unsubscribe';
      if (path.startsWith('/api/v1/')) expect(schemes, name).toEqual(unsubscribe ? [] : ['bearerAuth']);
    }
    expect(operations.find((o) => o.name === 'GET /health')?.operation['security']).toEqual([]);
  });

  it('lists every tag an operation uses, each with a description', () => {
    const tags = document.tags as { name: string; description: string }[];
    const used = new Set(operations.flatMap((o) => o.operation['tags'] as string[]));
    expect(new Set(tags.map((t) => t.name))).toEqual(used);
    for (const tag of tags) expect(tag.description.length, tag.name).toBeGreaterThan(10);
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
