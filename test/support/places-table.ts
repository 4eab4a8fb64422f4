import type { Kysely } from 'kysely';
import { scratchTables } from './scratch-tables.js';

export interface Place {
  legal_entity_id: string;
  business_unit_id: string | null;
}

/**
 * A fresh database with one table `b` of the places given (a legal entity, and a unit or none): where a
 * policy's SQL scope predicate is checked against its rule, row by row. Closed after the suite.
 */
export function placesTable(places: readonly Place[]): Promise<Kysely<{ b: Place }>> {
  return scratchTables<{ b: Place }>({ b: { columns: 'legal_entity_id uuid not null, business_unit_id uuid', rows: places } });
}
