import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { signingKeyEnv } from '../support/governance-factories.js';
import { createMatrixWorld } from './matrix-world.js';
import { arbitraryFor, objectFor } from './schema-arbitraries.js';

/**
 * Property-based fuzzing of every operation of the served OpenAPI document: bodies, query strings, path ids
 * and headers drawn from the document's own schemas (mostly near-valid, sometimes anything). For every
 * request: never a 5xx; a status the operation declares and a JSON body its declared schema accepts; every
 * error in the contract's shape with the request's id; a refused change leaves the database as it was. A fixed seed and FUZZ_RUNS cases in `npm test`; `npm run fuzz` for a long run
 * (FUZZ_RUNS and FUZZ_SEED may be set; a failure prints the seed and path that replay it).
 */
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 2_000);
const SEED = Number(process.env['FUZZ_SEED'] ?? 20_261_127);

type Schema = Record<string, unknown>;
interface Operation {
  method: string;
  path: string;
  parameters: { in: string; name: string; required?: boolean; schema: Schema }[];
  body: Schema | undefined;
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

/** The answer's status as the document declares it: the exact status, else its class (`4XX`). */
function declaredAnswer(operation: Operation, status: number) {
  return operation.responses[String(status)] ?? operation.responses[`${String(status).charAt(0)}XX`];
}

/**
 * What a change can touch. A refusal's own records are left out: a 403's access_denied entry, and the
 * alerts monitoring raises on repeated authentication failures (D9.5).
 */
const FINGERPRINT = sql<{ fingerprint: string }>`
  select string_agg(t.name || ':' || t.n || ':' || t.x, ',' order by t.name) as fingerprint from (
    ${sql.join(
      [
        'enterprises', 'enterprise_members', 'entity_roles', 'legal_entities', 'business_units', 'risk_scenarios',
        'risk_appetites', 'risk_appetite_history', 'bras', 'bra_risk_scenarios', 'bra_ratings', 'bra_snapshots',
        'bra_controls', 'key_controls', 'sub_controls', 'mitigation_actions', 'audit_checkpoints', 'users',
      ].map((table) => sql`select ${table}::text as name, count(*)::text as n, coalesce(max(xmin::text::bigint), 0)::text as x from ${sql.table(table)}`),
      sql` union all `,
    )}
    union all select 'audit_log', count(*)::text, '' from audit_log where action_type <> 'access_denied'
  ) t`;

/** Percent-encoding that also sends a lone surrogate, as the malformed UTF-8 bytes a client could send. */
function encodeSegment(value: string): string {
  return Array.from(value, (char) => (/\p{Cs}/u.test(char) ? '%ED%A0%80' : encodeURIComponent(char))).join('');
}

describe('fuzzing every operation of the served OpenAPI document', async () => {
  // A checkpoint key of its own: signing (POST /audit/checkpoints) must not create one under ./data.
  const ctx = await createTestContext({ env: signingKeyEnv() });
  const world = await createMatrixWorld(ctx);
  const document = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
    paths: Record<string, Record<string, { parameters?: Operation['parameters']; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Operation['responses'] }>>;
    components: Record<string, unknown>;
  };
  // The declared answers' schemas, their references resolved inside the document's components.
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats.default(ajv);
  ajv.addFormat('binary', true);
  const validators = new Map<Schema, ReturnType<typeof ajv.compile>>();
  const validatorOf = (schema: Schema) => {
    let validate = validators.get(schema);
    if (validate === undefined) {
      validate = ajv.compile({ ...schema, components: document.components });
      validators.set(schema, validate);
    }
    return validate;
  };
  const operations: Operation[] = Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/api/v1/'))
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        parameters: operation.parameters ?? [],
        body: operation.requestBody?.content['application/json']?.schema,
        responses: operation.responses,
      })),
    );
  const ids = [...new Set([...Object.values(world.foreignIds), ...Object.values(world.unassignedIds)])];
  const tokens = Object.values(world.tokens);

  const requestArbitrary = fc.constantFrom(...operations).chain((operation) => {
    const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
    const query = objectFor(
      { properties: Object.fromEntries(operation.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema])) },
      ids,
    );
    const body =
      operation.body === undefined
        ? fc.option(fc.jsonValue({ maxDepth: 2 }), { freq: 4 })
        : fc.oneof({ weight: 8, arbitrary: arbitraryFor(operation.body, ids) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) });
    return fc.record({
      operation: fc.constant(operation),
      path: fc.tuple(...pathParameters.map((parameter) => arbitraryFor(parameter.schema, ids).map((value) => [parameter.name, String(value)] as const))),
      query,
      body,
      rawBody: fc.option(fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('{', '[]', 'null', '{"a":1}{', '"text"', '{"__proto__":{"x":1}}')), { freq: 10 }),
      token: fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...tokens) }, { weight: 1, arbitrary: fc.constantFrom('', 'Bearer', 'Bearer x.y.z', 'Basic YTpi') }),
      contentType: fc.constantFrom('application/json', 'application/json', 'application/json; charset=utf-8', 'application/json; charset=utf-16', 'text/plain', 'application/x-www-form-urlencoded', 'application/vnd.api+json'),
      requestId: fc.option(fc.stringMatching(/^[\x21-\x7e]{0,80}$/), { freq: 5 }),
    });
  });

  it(`${RUNS} requests (seed ${SEED}): never a 5xx, every status and JSON body as declared, errors in the contract's shape with the request id, refusals change nothing`, async () => {
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(requestArbitrary, async (input) => {
        const path = input.path.reduce((url, [name, value]) => url.replace(`{${name}}`, encodeSegment(value)), input.operation.path);
        const search = new URLSearchParams(Object.entries(input.query).map(([key, value]): [string, string] => [key, typeof value === 'string' ? value : JSON.stringify(value)])).toString();
        const changes = input.operation.method !== 'GET';
        const before = changes ? (await FINGERPRINT.execute(ctx.db)).rows[0]!.fingerprint : '';
        const payload = input.rawBody ?? (input.body === undefined || input.body === null ? undefined : JSON.stringify(input.body));
        const headers: Record<string, string> = { authorization: input.token.startsWith('ey') ? `Bearer ${input.token}` : input.token };
        if (payload !== undefined) headers['content-type'] = input.contentType;
        if (input.requestId !== null) headers['x-request-id'] = input.requestId;
        const response = await ctx.app.inject({
          method: input.operation.method as 'GET',
          url: search === '' ? path : `${path}?${search}`,
          headers,
          ...(payload !== undefined ? { payload } : {}),
        });
        sent += 1;
        const where = `${input.operation.method} ${path}?${search} → ${response.statusCode} ${response.body.slice(0, 300)}`;
        expect(response.statusCode, where).toBeLessThan(500);
        // An empty or dot-segment path id (`.`, `..`) resolves to another path, whose answers are that path's.
        const ownPath = input.path.every(([, value]) => value !== '' && value !== '.' && value !== '..');
        const declared = declaredAnswer(input.operation, response.statusCode);
        if (ownPath) expect(declared, `${where}: a status the operation does not declare`).toBeDefined();
        const schema = declared?.content?.['application/json']?.schema;
        if (schema !== undefined && String(response.headers['content-type'] ?? '').startsWith('application/json')) {
          const validate = validatorOf(schema);
          expect(validate(response.json()), `${where}: outside its declared schema ${ajv.errorsText(validate.errors)}`).toBe(true);
        }
        if (response.statusCode >= 400) {
          const body = response.json() as Record<string, unknown>;
          expect(typeof body['error'], where).toBe('string');
          expect(typeof body['code'], where).toBe('string');
          expect(body['request_id'], where).toBe(response.headers['x-request-id']);
          if (changes) {
            const after = (await FINGERPRINT.execute(ctx.db)).rows[0]!.fingerprint;
            const changed = after.split(',').filter((part) => !before.split(',').includes(part));
            expect(changed, `${where}: a refusal changed the database`).toEqual([]);
          }
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    process.stdout.write(`openapi fuzz: ${operations.length} operations, ${sent} requests, seed ${SEED}\n`);
  }, 60 * 60_000);
});
