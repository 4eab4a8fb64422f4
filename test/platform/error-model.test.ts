import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { bearer, createUser, tokenFor } from '../support/factories.js';
import { mountProbes } from './probes.js';

const ID = randomUUID();
const ITEMS = '/api/v1/probe/items';
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The contract's error body (part 7, D2.1): `{ error, code, request_id, details? }`, id as in the header. */
function expectError(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = response.json();
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe('string');
  expect(body.error.length).toBeGreaterThan(0);
  expect(body.request_id).toBe(response.headers['x-request-id']);
  const allowed = ['error', 'code', 'request_id', 'details', 'retry_after'];
  expect(Object.keys(body).filter((key) => !allowed.includes(key))).toEqual([]);
  return body as { error: string; code: string; request_id: string; details?: Record<string, unknown> };
}

/** A 5xx body never carries a stack, SQL or driver text (D2.2). */
function expectNoInternals(response: LightMyRequestResponse) {
  const text = response.body;
  for (const leak of [
    'at /',
    '.ts:',
    'stack',
    'SELECT',
    'select',
    'FROM',
    'password_hash',
    'no_such_table',
    'secret',
    'syntax error',
    '42601',
    '42P01',
    'scanner',
    'routine',
    'eyJ',
    'bare string',
    'relation',
  ]) {
    expect(text, `the body leaks "${leak}"`).not.toContain(leak);
  }
}

describe('error model (D2.2, D2.3, part 7)', async () => {
  const ctx = await createTestContext({ extend: mountProbes });
  const post = (payload: string | object | undefined, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    ctx.app.inject({
      method: 'POST',
      url: ITEMS,
      headers,
      ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });

  it('accepts a valid body with 201 and trims its strings (D2.3)', async () => {
    const response = await post({ name: '  Widget  ', count: 10, owner_id: ID, due_date: '2026-02-28', nested: { label: ' x ' } });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data).toEqual({ name: 'Widget', count: 10, owner_id: ID, due_date: '2026-02-28', nested: { label: 'x' } });
  });

  it('accepts application/json with a charset parameter', async () => {
    const response = await post({ name: 'x' }, { 'content-type': 'application/json; charset=utf-8' });
    expect(response.statusCode, response.body).toBe(201);
  });

  describe('400 BAD_REQUEST (D2.2)', () => {
    it('400 BAD_REQUEST for malformed JSON (D2.2)', async () => {
      expectError(await post('{"name": "x",'), 400, 'BAD_REQUEST');
      expectError(await post("{'name': 'x'}"), 400, 'BAD_REQUEST');
    });

    it.each([
      ['an array', '[{"name":"x"}]'],
      ['a number', '42'],
      ['a string', '"name"'],
      ['null', 'null'],
      ['true', 'true'],
    ])('400 BAD_REQUEST for a JSON body that is %s, not an object (D2.2)', async (_label, payload) => {
      expectError(await post(payload), 400, 'BAD_REQUEST');
    });

    it('400 BAD_REQUEST for an empty body on a route that takes one (D2.2: not valid JSON)', async () => {
      expectError(await post(''), 400, 'BAD_REQUEST');
    });

    it('400 BAD_REQUEST for a body that tries to set __proto__ or constructor.prototype (prototype poisoning)', async () => {
      expectError(await post('{"name":"x","__proto__":{"count":99}}'), 400, 'BAD_REQUEST');
      expectError(await post('{"name":"x","nested":{"label":"y","__proto__":{"polluted":true}}}'), 400, 'BAD_REQUEST');
      expectError(await post('{"name":"x","constructor":{"prototype":{"polluted":true}}}'), 400, 'BAD_REQUEST');
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });

    it('400 BAD_REQUEST, not 500, for a body nested too deeply to walk (D2.2)', async () => {
      const depth = 100_000;
      const payload = `{"name":"x","nested":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
      expect(Buffer.byteLength(payload)).toBeLessThan(1024 * 1024);
      expectError(await post(payload), 400, 'BAD_REQUEST');
    });

    it('400 BAD_REQUEST for a path id that is not a UUID (D2.2)', async () => {
      const body = expectError(await ctx.app.inject({ method: 'GET', url: `${ITEMS}/not-a-uuid` }), 400, 'BAD_REQUEST');
      expect(body.details).toEqual({ fields: [{ field: 'item_id', message: expect.any(String) }] });
    });

    it('400 BAD_REQUEST for an over-long path id (D2.2), not a bare 414', async () => {
      expectError(await ctx.app.inject({ method: 'GET', url: `${ITEMS}/${'a'.repeat(300)}` }), 400, 'BAD_REQUEST');
    });

    it('400 BAD_REQUEST for a path id that is not valid percent-encoding (D2.2), not a bare framework error', async () => {
      const response = await ctx.app.inject({ method: 'GET', url: `${ITEMS}/%E0%A4%A` });
      expectError(response, 400, 'BAD_REQUEST');
      expect(response.headers['x-request-id']).toMatch(UUID_PATTERN);
    });

    it.each([
      ['page=abc', 'page'],
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=1.5', 'page'],
      ['page=', 'page'],
      ['page_size=0', 'page_size'],
      ['page_size=ten', 'page_size'],
      ['status=pending', 'status'],
      ['archived=yes', 'archived'],
      ['archived=1', 'archived'],
    ])('400 BAD_REQUEST for the query %s (D2.2, D2.5, D2.6)', async (query, field) => {
      const body = expectError(await ctx.app.inject({ method: 'GET', url: `${ITEMS}/${ID}?${query}` }), 400, 'BAD_REQUEST');
      expect(body.details).toMatchObject({ fields: [expect.objectContaining({ field })] });
    });

    it('accepts well-formed query values: defaults, enum members, true/false, page_size 500 used as 100 (D2.5, D2.6)', async () => {
      const plain = await ctx.app.inject({ method: 'GET', url: `${ITEMS}/${ID}` });
      expect(plain.statusCode, plain.body).toBe(200);
      expect(plain.json().pagination).toEqual({ page: 1, page_size: 25, total: 0, total_pages: 0, has_next: false, has_prev: false });
      const full = await ctx.app.inject({ method: 'GET', url: `${ITEMS}/${ID}?page=3&page_size=500&status=closed&archived=false` });
      expect(full.statusCode, full.body).toBe(200);
      expect(full.json().query).toEqual({ page: 3, page_size: 500, status: 'closed', archived: false });
      expect(full.json().pagination).toMatchObject({ page: 3, page_size: 100 });
      const yes = await ctx.app.inject({ method: 'GET', url: `${ITEMS}/${ID}?archived=true` });
      expect(yes.json().query.archived).toBe(true);
    });
  });

  describe('404, 413, 415 (D2.2)', () => {
    it('404 NOT_FOUND for an unknown route (D2.2); 405 for another method of a known one', async () => {
      expectError(await ctx.app.inject({ method: 'GET', url: '/no/such/route' }), 404, 'NOT_FOUND');
      const headers = bearer(await tokenFor(ctx, await createUser(ctx, { role: 'admin' })));
      expectError(await ctx.app.inject({ method: 'GET', url: '/api/v1/no-such-thing', headers }), 404, 'NOT_FOUND');
      // A known path under another method is 405 with Allow (test/platform/http-layer-answers.test.ts).
      const otherMethod = await ctx.app.inject({ method: 'DELETE', url: ITEMS, headers });
      expectError(otherMethod, 405, 'METHOD_NOT_ALLOWED');
      expect(otherMethod.headers['allow']).toBe('POST');
    });

    it('an unknown /api/v1 route without a token is 401, so routes are not disclosed to strangers (D4)', async () => {
      expectError(await ctx.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' }), 401, 'UNAUTHORIZED');
    });

    it('413 PAYLOAD_TOO_LARGE for a body over 1 MiB (D2.2)', async () => {
      const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
      expectError(await post(big), 413, 'PAYLOAD_TOO_LARGE');
    });

    it('accepts a body just under 1 MiB (the limit is 1 MiB, not less)', async () => {
      const payload = JSON.stringify({ name: 'x', nested: { label: 'y'.repeat(1024 * 1024 - 100) } });
      expect(Buffer.byteLength(payload)).toBeLessThan(1024 * 1024);
      const response = await post(payload);
      expect(response.statusCode, response.body.slice(0, 300)).toBe(201);
    });

    it('415 UNSUPPORTED_MEDIA_TYPE for a body sent as text/plain (D2.2)', async () => {
      expectError(await post('{"name":"x"}', { 'content-type': 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('415 UNSUPPORTED_MEDIA_TYPE for a body sent without a content type (D2.2)', async () => {
      expectError(await post('{"name":"x"}', {}), 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('415 UNSUPPORTED_MEDIA_TYPE for form and XML bodies (D2.2)', async () => {
      expectError(await post('name=x', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
      expectError(await post('<name>x</name>', { 'content-type': 'application/xml' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('an action POST without a body is accepted without a content type (D2.4)', async () => {
      const response = await ctx.app.inject({ method: 'POST', url: '/api/v1/probe/actions/go' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toEqual({ body: null });
    });
  });

  describe('422 VALIDATION_ERROR with details.fields (D2.2, D2.3)', () => {
    async function fieldsOf(payload: object) {
      const body = expectError(await post(payload), 422, 'VALIDATION_ERROR');
      const fields = (body.details as { fields: Array<{ field: string; message: string }> }).fields;
      expect(Array.isArray(fields)).toBe(true);
      for (const entry of fields) {
        expect(Object.keys(entry).sort()).toEqual(['field', 'message']);
        expect(typeof entry.message).toBe('string');
        expect(entry.message.length).toBeGreaterThan(0);
      }
      return fields;
    }
    const fieldNames = (fields: Array<{ field: string }>) => fields.map((entry) => entry.field);

    it('422 for a missing required field, naming it (D2.2)', async () => {
      expect(await fieldsOf({ count: 1 })).toEqual([{ field: 'name', message: 'is required' }]);
    });

    it('422 for an empty object: the required field is reported (D2.2)', async () => {
      expect(fieldNames(await fieldsOf({}))).toEqual(['name']);
    });

    it('422 for a wrong type, without coercion of "5" to 5 (D2.2)', async () => {
      expect(fieldNames(await fieldsOf({ name: 123 }))).toEqual(['name']);
      expect(fieldNames(await fieldsOf({ name: 'x', count: '5' }))).toEqual(['count']);
      expect(fieldNames(await fieldsOf({ name: 'x', count: 1.5 }))).toEqual(['count']);
      expect(fieldNames(await fieldsOf({ name: 'x', nested: 'label' }))).toEqual(['nested']);
    });

    it('422 for a value out of range (D2.2)', async () => {
      expect(fieldNames(await fieldsOf({ name: 'x', count: 11 }))).toEqual(['count']);
      expect(fieldNames(await fieldsOf({ name: 'x', count: -1 }))).toEqual(['count']);
      expect(fieldNames(await fieldsOf({ name: 'n'.repeat(201) }))).toEqual(['name']);
    });

    it('422 for a bad UUID format (D2.2)', async () => {
      expect(fieldNames(await fieldsOf({ name: 'x', owner_id: 'not-a-uuid' }))).toEqual(['owner_id']);
    });

    it('422 for a bad date format or an impossible date (D2.2, D2.7)', async () => {
      expect(fieldNames(await fieldsOf({ name: 'x', due_date: '28/02/2026' }))).toEqual(['due_date']);
      expect(fieldNames(await fieldsOf({ name: 'x', due_date: '2026-02-30' }))).toEqual(['due_date']);
      expect(fieldNames(await fieldsOf({ name: 'x', due_date: '2026-02-28T00:00:00Z' }))).toEqual(['due_date']);
    });

    it('422 for an unknown field, at the top level and nested (D2.3)', async () => {
      expect(await fieldsOf({ name: 'x', colour: 'red' })).toEqual([{ field: 'colour', message: 'is not allowed' }]);
      expect(await fieldsOf({ name: 'x', nested: { label: 'y', extra: 1 } })).toEqual([
        { field: 'nested.extra', message: 'is not allowed' },
      ]);
    });

    it('422 for a required string that is blank after trimming (D2.3)', async () => {
      expect(await fieldsOf({ name: '   ' })).toEqual([{ field: 'name', message: 'must not be empty' }]);
      expect(await fieldsOf({ name: '\t\n' })).toEqual([{ field: 'name', message: 'must not be empty' }]);
      expect(fieldNames(await fieldsOf({ name: 'x', nested: { label: '  ' } }))).toEqual(['nested.label']);
    });

    it('422 lists every broken field at once', async () => {
      expect(fieldNames(await fieldsOf({ count: 99, owner_id: 'x', colour: 'red' })).sort()).toEqual([
        'colour',
        'count',
        'name',
        'owner_id',
      ]);
    });
  });

  describe('500 INTERNAL_ERROR never leaks internals (D2.2)', () => {
    it.each([
      ['a plain Error', '/api/v1/probe/crash'],
      ['a bare string', '/api/v1/probe/crash-string'],
      ['a driver-like error with SQL', '/api/v1/probe/pg-crash'],
      ['a real failing query', '/api/v1/probe/bad-sql'],
    ])('500 INTERNAL_ERROR for %s, without stack, SQL or driver text (D2.2)', async (_label, url) => {
      const response = await ctx.app.inject({ method: 'GET', url });
      const body = expectError(response, 500, 'INTERNAL_ERROR');
      expect(body.details).toBeUndefined();
      expectNoInternals(response);
    });
  });
});

describe('request id (D2.1)', async () => {
  const ctx = await createTestContext({ extend: mountProbes });
  const get = (url: string, requestId?: string) =>
    ctx.app.inject({ method: 'GET', url, headers: requestId === undefined ? {} : { 'x-request-id': requestId } });

  it('echoes an incoming X-Request-Id of at most 128 printable characters (D2.1)', async () => {
    for (const id of ['abc-123', 'x'.repeat(128), 'trace:0af7651916cd43dd8448eb211c80319c;span=b7ad6b71', 'req id with spaces']) {
      const response = await get('/health', id);
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-request-id']).toBe(id);
    }
  });

  it('replaces an X-Request-Id longer than 128 characters with a UUID (D2.1)', async () => {
    const response = await get('/health', 'x'.repeat(129));
    expect(response.headers['x-request-id']).toMatch(UUID_PATTERN);
  });

  it('replaces an X-Request-Id with non-printable characters with a UUID (D2.1)', async () => {
    for (const id of ['bad\u0001id', 'tab\tinside', 'caf\u00e9', 'del\u007f']) {
      const response = await get('/health', id);
      expect(response.headers['x-request-id'], JSON.stringify(id)).toMatch(UUID_PATTERN);
    }
  });

  it('generates a UUID when X-Request-Id is absent, a new one per request (D2.1)', async () => {
    const first = (await get('/health')).headers['x-request-id'];
    const second = (await get('/health')).headers['x-request-id'];
    expect(first).toMatch(UUID_PATTERN);
    expect(second).toMatch(UUID_PATTERN);
    expect(first).not.toBe(second);
  });

  it('carries the id on success and error responses, the error body repeating it (D2.1)', async () => {
    const ok = await get(`${ITEMS}/${ID}`, 'ok-1');
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-request-id']).toBe('ok-1');
    for (const [url, status] of [
      ['/api/v1/me', 401],
      [`${ITEMS}/nope`, 400],
      ['/nowhere', 404],
      ['/api/v1/probe/crash', 500],
    ] as const) {
      const response = await get(url, `err-${status}`);
      expect(response.statusCode).toBe(status);
      expect(response.headers['x-request-id']).toBe(`err-${status}`);
      expect(response.json().request_id).toBe(`err-${status}`);
    }
    const generated = await get('/nowhere');
    expect(generated.json().request_id).toBe(generated.headers['x-request-id']);
    expect(generated.json().request_id).toMatch(UUID_PATTERN);
  });

  it('carries the id on parser refusals: 400, 413, 415 (D2.1)', async () => {
    const responses = await Promise.all([
      ctx.app.inject({ method: 'POST', url: ITEMS, headers: { 'content-type': 'application/json', 'x-request-id': 'p-400' }, payload: '{' }),
      ctx.app.inject({
        method: 'POST',
        url: ITEMS,
        headers: { 'content-type': 'application/json', 'x-request-id': 'p-413' },
        payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 1) }),
      }),
      ctx.app.inject({ method: 'POST', url: ITEMS, headers: { 'content-type': 'text/plain', 'x-request-id': 'p-415' }, payload: 'x' }),
    ]);
    expect(responses.map((r) => [r.statusCode, r.headers['x-request-id'], r.json().request_id])).toEqual([
      [400, 'p-400', 'p-400'],
      [413, 'p-413', 'p-413'],
      [415, 'p-415', 'p-415'],
    ]);
  });
});
