import { randomUUID } from 'node:crypto';

type Schema = Record<string, unknown>;
/** The id to put in a member or parameter of this name (`bra_id`, `legal_entity_id`), when the suite has one. */
export type IdSource = (name: string) => string | undefined;

/**
 * A value that passes the schema (the served OpenAPI document's or a route's): required members only, plus
 * the optional `*_id` references the suite has ids for, so that a body addresses what the suite chose.
 * Enough for a request to reach the service's rules instead of stopping at validation.
 */
export function sampleValue(schema: Schema, name: string, ids: IdSource): unknown {
  const branches = (schema['anyOf'] ?? schema['oneOf']) as Schema[] | undefined;
  if (branches !== undefined) return sampleValue(branches.find((branch) => branch['type'] !== 'null') ?? branches[0]!, name, ids);
  if ('const' in schema) return schema['const'];
  if (Array.isArray(schema['enum'])) return schema['enum'][0];
  switch (schema['type']) {
    case 'string':
      return sampleString(schema, name, ids);
    case 'integer':
    case 'number': {
      const minimum = (schema['minimum'] as number | undefined) ?? 1;
      const maximum = schema['maximum'] as number | undefined;
      return maximum !== undefined && maximum < minimum ? maximum : Math.max(minimum, Math.min(maximum ?? 1, 1));
    }
    case 'boolean':
      return false;
    case 'array': {
      const item = (schema['items'] as Schema | undefined) ?? { type: 'string' };
      return [sampleValue(item, name.replace(/s$/, ''), ids)];
    }
    case 'object':
      return sampleObject(schema, ids);
    default:
      return null;
  }
}

export function sampleObject(schema: Schema, ids: IdSource): Record<string, unknown> {
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  const required = new Set((schema['required'] ?? []) as string[]);
  const out: Record<string, unknown> = {};
  for (const [member, memberSchema] of Object.entries(properties)) {
    if (required.has(member) || (member.endsWith('_id') && ids(member) !== undefined)) out[member] = sampleValue(memberSchema, member, ids);
  }
  return out;
}

function sampleString(schema: Schema, name: string, ids: IdSource): string {
  switch (schema['format']) {
    case 'uuid':
      return ids(name) ?? randomUUID();
    case 'date':
      return '2026-12-31';
    case 'date-time':
      return new Date().toISOString();
    case 'email':
      return `sample-${randomUUID().slice(0, 8)}@example.test`;
  }
  const max = (schema['maxLength'] as number | undefined) ?? 200;
  return `Sample ${name} ${randomUUID().slice(0, 8)}`.slice(0, max);
}
