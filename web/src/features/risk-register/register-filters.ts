import type { RegisterFilters } from './api';

/**
 * The register's filters live in the address, so a dashboard heat-map cell links to the register with the
 * filter the service gave it (`register_query`) and a filtered register can be bookmarked. This reads the
 * address into the API's query and writes a change back; it decides nothing about which rows match.
 */
const TEXT = ['legal_entity_id', 'business_unit_id', 'category', 'risk_level', 'sort'] as const;
const FLAGS = ['above_appetite', 'accepted', 'include_live'] as const;
export const CELL_FILTERS = ['inherent_impact', 'inherent_likelihood', 'residual_impact', 'residual_likelihood'] as const;

export function filtersFrom(params: URLSearchParams): RegisterFilters {
  const filters: Record<string, string | number | boolean> = {};
  for (const key of TEXT) {
    const value = params.get(key);
    if (value) filters[key] = value;
  }
  for (const key of FLAGS) {
    const value = params.get(key);
    if (value === 'true' || value === 'false') filters[key] = value === 'true';
  }
  for (const key of CELL_FILTERS) {
    const value = Number(params.get(key));
    if (Number.isInteger(value) && value > 0) filters[key] = value;
  }
  return filters as RegisterFilters;
}

/** The address of the filters after a change; a page number never survives a change of filter. */
export function paramsWith(params: URLSearchParams, patch: Partial<Record<keyof RegisterFilters, string | number | boolean | null | undefined>>): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete('page');
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || value === undefined || value === '') next.delete(key);
    else next.set(key, String(value));
  }
  return next;
}

/** The heat-map cell a filter names, in words ("Residual impact 4 × likelihood 3"), or null. */
export function cellFilterLabel(filters: RegisterFilters): string | null {
  const parts: string[] = [];
  for (const kind of ['inherent', 'residual'] as const) {
    const impact = filters[`${kind}_impact`];
    const likelihood = filters[`${kind}_likelihood`];
    if (impact === undefined && likelihood === undefined) continue;
    const name = kind === 'inherent' ? 'Inherent' : 'Residual';
    parts.push(`${name} impact ${impact ?? 'any'} × likelihood ${likelihood ?? 'any'}`);
  }
  return parts.length === 0 ? null : parts.join('; ');
}
