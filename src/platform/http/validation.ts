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

export function schemaController(): NonNullable<FastifyServerOptions['schemaController']> {
  const bodyAjv = buildAjv(false);
  const textAjv = buildAjv(true);
  return {
    compilersFactory: {
      buildValidator: (() =>
        ({ schema, httpPart }: { schema: object; httpPart?: string }) => {
          const ajv = httpPart === 'body' ? bodyAjv : textAjv;
          return ajv.compile(schema) as ValidateFunction;
        }) as never,
    },
  };
}
