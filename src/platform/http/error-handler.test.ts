import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, mapConstraintError } from '../db/constraint-errors.js';
import { toAppError } from './error-handler.js';
import { AppError, ERROR_STATUS } from '../errors/app-error.js';

describe('error catalogue (D2.2)', () => {
  it('maps every code to the status of the D2.2 table', () => {
    expect(ERROR_STATUS).toEqual({
      BAD_REQUEST: 400,
      INVALID_REFERENCE: 400,
      UNAUTHORIZED: 401,
      FORBIDDEN: 403,
      NOT_FOUND: 404,
      // The HTTP layer (decisions.md, "What the HTTP layer answers before an operation runs"): additions to D2.2.
      METHOD_NOT_ALLOWED: 405,
      REQUEST_TIMEOUT: 408,
      CONFLICT: 409,
      // Safe clients (decisions.md, "Safe clients"): additions to D2.2.
      IDEMPOTENCY_IN_PROGRESS: 409,
      INVALID_STATE: 409,
      RATINGS_INCOMPLETE: 409,
      PRECONDITION_FAILED: 412,
      PAYLOAD_TOO_LARGE: 413,
      UNSUPPORTED_MEDIA_TYPE: 415,
      // Evidence downloads (decisions.md, "Evidence files"): a Range past the end of the file.
      RANGE_NOT_SATISFIABLE: 416,
      VALIDATION_ERROR: 422,
      IDEMPOTENCY_KEY_REUSED: 422,
      PRECONDITION_REQUIRED: 428,
      RATE_LIMIT_EXCEEDED: 429,
      HEADERS_TOO_LARGE: 431,
      INTERNAL_ERROR: 500,
      SERVICE_UNAVAILABLE: 503,
    });
    expect(new AppError('INVALID_STATE', 'x').status).toBe(409);
  });
});

describe('toAppError (D2.2)', () => {
  it('passes an AppError through unchanged', () => {
    const error = new AppError('CONFLICT', 'taken');
    expect(toAppError(error)).toBe(error);
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'oops'],
    ['a number', 42],
    ['a plain Error', new Error('select * from users')],
    ['a pg syntax error', Object.assign(new Error('syntax error at or near "x"'), { code: '42601' })],
    ['a check violation', Object.assign(new Error('violates check constraint'), { code: '23514', constraint: 'x_check' })],
  ])('answers 500 INTERNAL_ERROR with a fixed message for %s', (_label, thrown) => {
    const error = toAppError(thrown);
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.message).toBe('An unexpected error occurred');
    expect(error.details).toBeUndefined();
  });

  it.each([
    ['ECONNREFUSED', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a connection exception (08006)', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['admin shutdown (57P01)', Object.assign(new Error('terminating connection'), { code: '57P01' })],
    ['too many connections (53300)', Object.assign(new Error('too many clients'), { code: '53300' })],
    ['a closed pool', new Error('database is closed')],
    ['a destroyed Kysely', new Error('driver has already been destroyed')],
    ['a pool timeout', new Error('timeout exceeded when trying to connect')],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    ['an AggregateError of refused connections', new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })])],
  ])('answers 503 SERVICE_UNAVAILABLE when the database cannot be reached: %s (D2.2)', (_label, thrown) => {
    expect(isDatabaseUnavailable(thrown)).toBe(true);
    expect(toAppError(thrown).code).toBe('SERVICE_UNAVAILABLE');
  });

  it('maps a unique violation to 409 CONFLICT by constraint name, without the driver text', () => {
    const error = toAppError(
      Object.assign(new Error('duplicate key value violates unique constraint "bras_name_key"'), {
        code: '23505',
        constraint: 'bras_name_key',
        detail: 'Key (name)=(x) already exists.',
      }),
    );
    expect(error.code).toBe('CONFLICT');
    expect(error.message).toBe('A BRA with this name already exists');
    expect(mapConstraintError({ code: '23505', constraint: 'unknown_key' })?.code).toBe('CONFLICT');
  });

  it('maps a known foreign-key violation to 400 INVALID_REFERENCE naming the field', () => {
    const error = toAppError({ code: '23503', constraint: 'bras_legal_entity_fkey' });
    expect(error.code).toBe('INVALID_REFERENCE');
    expect(error.details).toEqual({ field: 'legal_entity_id' });
    // An unknown foreign key is a bug, not the caller's fault.
    expect(toAppError({ code: '23503', constraint: 'mystery_fkey' }).code).toBe('INTERNAL_ERROR');
  });

  it('maps body validation to 422 with fields, and path or query validation to 400 (D2.2)', () => {
    const issues = [
      { instancePath: '', keyword: 'required', params: { missingProperty: 'name' }, message: "must have required property 'name'" },
      { instancePath: '/items/0/due', keyword: 'format', params: { format: 'date' }, message: 'must match format "date"' },
      { instancePath: '', keyword: 'additionalProperties', params: { additionalProperty: 'colour' } },
    ];
    const body = toAppError(Object.assign(new Error('x'), { validation: issues, validationContext: 'body' }));
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.details).toEqual({
      fields: [
        { field: 'name', message: 'is required' },
        { field: 'items[0].due', message: 'must match format "date"' },
        { field: 'colour', message: 'is not allowed' },
      ],
    });
    const query = toAppError(Object.assign(new Error('x'), { validation: issues.slice(1, 2), validationContext: 'querystring' }));
    expect(query.code).toBe('BAD_REQUEST');
  });

  it('maps a body whose root has the wrong type to 400 BAD_REQUEST (D2.2: not an object)', () => {
    const error = toAppError(
      Object.assign(new Error('x'), {
        validation: [{ instancePath: '', keyword: 'type', params: { type: 'object' }, message: 'must be object' }],
        validationContext: 'body',
      }),
    );
    expect(error.code).toBe('BAD_REQUEST');
  });

  it('maps Fastify media-type and size refusals to 415 and 413, other 4xx to 400', () => {
    expect(toAppError({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(toAppError({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }).code).toBe('PAYLOAD_TOO_LARGE');
    expect(toAppError({ code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH', statusCode: 400 }).code).toBe('BAD_REQUEST');
    expect(toAppError({ code: 'FST_ERR_SOMETHING', statusCode: 500 }).code).toBe('INTERNAL_ERROR');
  });
});
