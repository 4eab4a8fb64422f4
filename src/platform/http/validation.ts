import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyServerOptions } from 'fastify';
import { ErrorBody } from './schemas.js';

/**
 * Two validators: bodies are strict (no coercion, unknown members refused, D2.3); path and query values
 * arrive as text and are coerced to their declared types.
 */
function buildAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    allErrors: true,
    strict: false,
  });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  ajv.addSchema(ErrorBody);
  return ajv;
}

/**
 * The JSON path of the first number that no column can take, or null. Ajv accepts Infinity as a number and
 * as an integer (a query's `page=1e400` or `Infinity` is coerced to it, a body's `1e400` parses to it), and
 * integers beyond 2^53 are not exact; either would reach SQL as a value PostgreSQL refuses (a 500).
 */
export function unusableNumber(value: unknown, path = ''): string | null {
  if (typeof value === 'number') {
    return Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? null : path;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      const found = unusableNumber(member, `${path}/${key}`);
      if (found !== null) return found;
    }
  }
  return null;
}

/** Ajv's validator, then the number check above, reported as an Ajv issue so the error handler names the field. */
function withNumberCheck(validate: ValidateFunction): ValidateFunction {
  const checked = ((data: unknown) => {
    if (!validate(data)) {
      checked.errors = validate.errors;
      return false;
    }
    const path = unusableNumber(data);
    checked.errors = path === null ? null : [{ instancePath: path, schemaPath: '#', keyword: 'type', params: {}, message: 'must be a finite number between -(2^53-1) and 2^53-1' }];
    return path === null;
  }) as ValidateFunction;
  return checked;
}

export function schemaController(): NonNullable<FastifyServerOptions['schemaController']> {
  const bodyAjv = buildAjv(false);
  const textAjv = buildAjv(true);
  return {
    compilersFactory: {
      buildValidator: (() =>
        ({ schema, httpPart }: { schema: object; httpPart?: string }) => {
          const ajv = httpPart === 'body' ? bodyAjv : textAjv;
          return withNumberCheck(ajv.compile(schema) as ValidateFunction);
        }) as never,
    },
  };
}
