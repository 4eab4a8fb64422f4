import { parse } from 'scim2-parse-filter';
import { scimError } from './scim-errors.js';

/**
 * The filters provisioning clients send (RFC 7644 3.4.2.2): Entra ID and Okta look a user up by
 * `userName eq "…"` (Entra also by `externalId eq "…"`) and a group by `displayName eq "…"` before they
 * create one. Those equality filters are served, by an index; anything else is refused with 400
 * `invalidFilter`, rather than answered wrongly. Parsed by scim2-parse-filter.
 */
export function equalityFilter<A extends string>(filter: string | undefined, attributes: readonly A[]): { attribute: A; value: string } | null {
  if (filter === undefined || filter.trim() === '') return null;
  let ast;
  try {
    ast = parse(filter);
  } catch {
    throw scimError('BAD_REQUEST', 'The filter is not valid SCIM filter syntax', 'invalidFilter');
  }
  if (ast.op !== 'eq' || !('attrPath' in ast) || !('compValue' in ast) || typeof ast.compValue !== 'string') {
    throw scimError('BAD_REQUEST', `Only equality filters on ${attributes.join(', ')} are supported`, 'invalidFilter');
  }
  const attribute = attributes.find((name) => name.toLowerCase() === ast.attrPath.toLowerCase());
  if (attribute === undefined) throw scimError('BAD_REQUEST', `Filtering on ${ast.attrPath} is not supported (only ${attributes.join(', ')})`, 'invalidFilter');
  return { attribute, value: ast.compValue };
}

/** `members[value eq "id"]`: the member a PATCH path names; null for another shape. */
export function memberOfPath(path: string): string | null {
  try {
    const ast = parse(path);
    if (ast.op === '[]' && ast.attrPath.toLowerCase() === 'members' && ast.valFilter.op === 'eq' && 'attrPath' in ast.valFilter
      && ast.valFilter.attrPath.toLowerCase() === 'value' && 'compValue' in ast.valFilter && typeof ast.valFilter.compValue === 'string') {
      return ast.valFilter.compValue;
    }
  } catch {
    return null;
  }
  return null;
}
