import fc from 'fast-check';

type Schema = Record<string, unknown>;

/** Text as a client may send it: plain, any Unicode (lone surrogates included), edge cases the contract names. */
const anyText = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\u0000', 'x\ud800y', '0000-01-01', '9999-12-31', '1e400', '-1', "'; drop table bras; --", '../../etc', 'a'.repeat(5001)) },
);

const anyDate = fc.oneof(
  fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
  fc.constantFrom('0000-01-01', '2026-02-30', '2026-13-01', '20261231', '+012026-01-01'),
);

/**
 * Values for a JSON schema of the served OpenAPI document: mostly close to valid (so that requests reach the
 * service's rules and the database), sometimes anything at all. `ids` are ids of real records to mix in.
 */
export function arbitraryFor(schema: Schema, ids: readonly string[]): fc.Arbitrary<unknown> {
  const branches = (schema['anyOf'] ?? schema['oneOf']) as Schema[] | undefined;
  if (branches !== undefined) return fc.oneof(...branches.map((branch) => arbitraryFor(branch, ids)));
  if ('const' in schema) return fc.oneof({ weight: 5, arbitrary: fc.constant(schema['const']) }, { weight: 1, arbitrary: anyText });
  if (Array.isArray(schema['enum'])) return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...(schema['enum'] as unknown[])) }, { weight: 1, arbitrary: anyText });
  switch (schema['type']) {
    case 'string':
      switch (schema['format']) {
        case 'uuid':
          return fc.oneof({ weight: 4, arbitrary: ids.length > 0 ? fc.constantFrom(...ids) : fc.uuid() }, { weight: 2, arbitrary: fc.uuid() }, { weight: 1, arbitrary: anyText });
        case 'date':
          return fc.oneof({ weight: 4, arbitrary: anyDate }, { weight: 1, arbitrary: anyText });
        case 'date-time':
          return fc.oneof(fc.date({ noInvalidDate: true }).map((date) => date.toISOString()), anyText);
        case 'email':
          return fc.oneof(fc.emailAddress(), anyText);
      }
      return fc.oneof({ weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: Math.min((schema['maxLength'] as number | undefined) ?? 50, 50) }) }, { weight: 2, arbitrary: anyText });
    case 'integer':
    case 'number':
      return fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: (schema['minimum'] as number | undefined) ?? -5, max: (schema['maximum'] as number | undefined) ?? 1000 }) },
        { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(2 ** 53, -(2 ** 63), 1e308)) },
        { weight: 1, arbitrary: anyText },
      );
    case 'boolean':
      return fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: anyText });
    case 'array':
      return fc.oneof(
        { weight: 4, arbitrary: fc.array(arbitraryFor((schema['items'] as Schema | undefined) ?? {}, ids), { maxLength: 4 }) },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
      );
    case 'object':
      return objectFor(schema, ids);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** An object of the schema's members: each required one mostly present, optional ones sometimes, now and then one more. */
export function objectFor(schema: Schema, ids: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  const required = new Set((schema['required'] ?? []) as string[]);
  const members = Object.entries(properties).map(([name, member]) => {
    const present = required.has(name) ? fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }) : fc.boolean();
    return fc.tuple(fc.constant(name), present, arbitraryFor(member, ids));
  });
  const extra = fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 1 })), { freq: 8 });
  return fc.tuple(fc.tuple(...members), extra).map(([chosen, more]) => {
    const out: Record<string, unknown> = {};
    for (const [name, present, value] of chosen) if (present) out[name] = value;
    if (more !== null) out[more[0]] = more[1];
    return out;
  });
}
