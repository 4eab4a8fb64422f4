import { createHash } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { AuditLogTable } from '../db/tables/audit.js';

/** The hash of the first entry's predecessor. */
export const GENESIS_HASH = '0'.repeat(64);

/** JSON with object keys sorted at every depth: the same content always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
}

/** What an entry's hash covers: every column but the hashes, created_at as the ISO text it is hashed as. */
export type ChainedContent = Omit<Selectable<AuditLogTable>, 'prev_hash' | 'hash' | 'created_at'> & { created_at: string };

/** D7.5: SHA-256 over the previous entry's hash and the entry's canonical content. */
export function entryHash(prevHash: string, content: ChainedContent): string {
  return createHash('sha256').update(prevHash).update('\n').update(canonicalJson(content)).digest('hex');
}
