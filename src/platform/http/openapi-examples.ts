/**
 * Example values generated from a JSON schema, so that every request body and success response of the
 * OpenAPI document carries an example without each route writing one. A schema (or one of its fields)
 * that declares `examples` (JSON Schema 2020-12) or `default` keeps its own; the rest is derived from the
 * type, the format and the property name. The result validates against the schema for the keywords our
 * schemas use (type, format, enum/const, minimum, minLength/maxLength, nullable unions).
 */
type Schema = Record<string, unknown>;

const SAMPLE_UUIDS = [
  '6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10',
  'b2d94a37-51e8-4f06-8c2b-7a13e9f05d21',
  '0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432',
  'e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643',
];

/** Plausible text for the names our schemas use; anything else gets a neutral sample. */
const BY_PROPERTY: Record<string, string> = {
  email: 'alex.morgan@example.com',
  full_name: 'Alex Morgan',
  name: 'Northwind Trading Ltd',
  enterprise_name: 'Northwind Group',
  business_unit_name: 'Retail Banking',
  description: 'What this is about, in a sentence or two.',
  message: 'Done',
  password: 'correct-horse-battery-staple',
  refresh_token: 'v1.rt_5Jf0q9xYb3kL2mN8pR4sT6uW',
  access_token: 'eyJhbGciOiJFUzI1NiIsImtpZCI6ImFiY2QifQ.eyJzdWIiOiIuLi4ifQ.c2lnbmF0dXJl',
  error: 'Human-readable description of what went wrong',
  code: 'BAD_REQUEST',
  request_id: '7b6c2a90-3f1e-4d2b-9c8a-5e4f3a2b1c0d',
  country: 'GB',
  title: 'A short title',
  category: 'External fraud',
  registration_number: '01234567',
  notes: 'Checked with the operations team.',
  resolution: 'Restarted the failing job; it ran cleanly.',
  version: '1.0.0',
};

const FORMATS: Record<string, string> = {
  'date-time': '2026-03-02T09:30:00.000Z',
  date: '2026-03-31',
  email: 'alex.morgan@example.com',
  uri: 'https://example.com/resource',
  url: 'https://example.com/resource',
};

export interface ExampleContext {
  /** Resolves `#/components/schemas/X` references. */
  resolve(ref: string): Schema | undefined;
}

export function exampleFor(schema: unknown, context: ExampleContext, property?: string): unknown {
  return sample(schema, context, property, { depth: 0, uuid: 0 });
}

function sample(value: unknown, context: ExampleContext, property: string | undefined, state: { depth: number; uuid: number }): unknown {
  if (typeof value !== 'object' || value === null) return null;
  const schema = value as Schema;
  if (state.depth > 12) return null;
  if (typeof schema['$ref'] === 'string') {
    const target = context.resolve(schema['$ref']);
    return target === undefined ? null : sample(target, context, property, state);
  }
  if (Array.isArray(schema['examples']) && schema['examples'].length > 0) return schema['examples'][0];
  if ('example' in schema) return schema['example'];
  if ('const' in schema) return schema['const'];
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return schema['enum'][0];
  if ('default' in schema) return schema['default'];

  const variants = (schema['anyOf'] ?? schema['oneOf']) as unknown[] | undefined;
  if (Array.isArray(variants)) {
    const chosen = variants.find((variant) => !isNullSchema(variant)) ?? variants[0];
    return sample(chosen, context, property, state);
  }
  if (Array.isArray(schema['allOf'])) {
    return Object.assign({}, ...schema['allOf'].map((part) => sample(part, context, property, state) ?? {}));
  }

  const type = Array.isArray(schema['type']) ? (schema['type'] as string[]).find((t) => t !== 'null') : schema['type'];
  const deeper = { ...state, depth: state.depth + 1 };
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = (schema['properties'] ?? {}) as Record<string, unknown>;
      for (const [name, child] of Object.entries(properties)) out[name] = sample(child, context, name, deeper);
      state.uuid = deeper.uuid;
      return out;
    }
    case 'array': {
      const item = sample(schema['items'], context, property, deeper);
      state.uuid = deeper.uuid;
      return item === null && schema['items'] === undefined ? [] : [item];
    }
    case 'integer':
    case 'number':
      return numberFor(schema);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      return stringFor(schema, property, state);
    default:
      return schema['properties'] !== undefined ? sample({ ...schema, type: 'object' }, context, property, state) : null;
  }
}

function isNullSchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as Schema)['type'] === 'null';
}

function numberFor(schema: Schema): number {
  const minimum = typeof schema['minimum'] === 'number' ? schema['minimum'] : undefined;
  const maximum = typeof schema['maximum'] === 'number' ? schema['maximum'] : undefined;
  if (minimum !== undefined) return minimum;
  if (maximum !== undefined && maximum < 1) return maximum;
  return 1;
}

function stringFor(schema: Schema, property: string | undefined, state: { uuid: number }): string {
  const format = schema['format'];
  if (format === 'uuid') {
    const id = SAMPLE_UUIDS[state.uuid % SAMPLE_UUIDS.length] as string;
    state.uuid += 1;
    return id;
  }
  let text = (typeof format === 'string' ? FORMATS[format] : undefined) ?? (property !== undefined ? (BY_PROPERTY[property] ?? property.replace(/_/g, ' ')) : 'text');
  if (typeof schema['pattern'] === 'string') text = matchingPattern(schema['pattern'], text);
  const minLength = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  const maxLength = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : Infinity;
  if (text.length < minLength) text = text.padEnd(minLength, 'x');
  if (text.length > maxLength) text = text.slice(0, maxLength);
  return text;
}

/** A pattern cannot be inverted in general; a few common shapes are tried before giving up. */
function matchingPattern(pattern: string, preferred: string): string {
  let expression: RegExp;
  try {
    expression = new RegExp(pattern, 'u');
  } catch {
    return preferred;
  }
  const candidates = [preferred, 'GB', 'ABC', 'abc', 'ABC-123', 'abc-123', 'A1', '1', '2026-03-31', '09:30', '#1e88e5', 'text'];
  return candidates.find((candidate) => expression.test(candidate)) ?? preferred;
}
