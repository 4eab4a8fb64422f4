import { boundedText } from '../../../../platform/http/stored-text.js';
import { memberOfPath } from './scim-filter.js';
import { invalidValue, scimError } from './scim-errors.js';

/**
 * PATCH operations (RFC 7644 3.5.2) as Entra ID and Okta send them, reduced to what this service keeps of a
 * user or a group. Pure. What the providers do that the RFC does not quite: `op` in any case (`Replace`),
 * booleans as strings (`"False"`), a path-less operation whose value is an object of attributes (with
 * `name.givenName`-style keys too), group members removed by `members[value eq "…"]` or by a value list.
 * Attributes the service does not keep (title, department, the enterprise extension) are ignored, as
 * RFC 7643 lets a provider ignore attributes it does not support, so that provisioning does not fail on them.
 */

export interface UserChanges {
  userName?: string;
  displayName?: string;
  formatted?: string;
  givenName?: string;
  familyName?: string;
  email?: string;
  externalId?: string | null;
  active?: boolean;
}

export interface PatchOperation {
  op: string;
  path?: string;
  value?: unknown;
}

export function operationsOf(body: unknown): PatchOperation[] {
  const ops = (body as { Operations?: unknown } | null)?.Operations;
  if (!Array.isArray(ops) || ops.length === 0) throw scimError('BAD_REQUEST', 'A PATCH needs a non-empty Operations array', 'invalidSyntax');
  return ops.map((op) => {
    if (typeof op !== 'object' || op === null || typeof (op as PatchOperation).op !== 'string') throw scimError('BAD_REQUEST', 'Each operation needs an op', 'invalidSyntax');
    const kind = (op as PatchOperation).op.toLowerCase();
    if (kind !== 'add' && kind !== 'replace' && kind !== 'remove') throw scimError('BAD_REQUEST', `Unknown op ${(op as PatchOperation).op}`, 'invalidSyntax');
    const path = (op as PatchOperation).path;
    if (path !== undefined && typeof path !== 'string') throw scimError('BAD_REQUEST', 'path must be a string', 'invalidPath');
    return { op: kind, ...(path === undefined ? {} : { path }), value: (op as PatchOperation).value };
  });
}

export function booleanOf(value: unknown, field: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw invalidValue(`${field} must be a boolean`);
}

/** The bound holds for what is stored (trimmed, counted in characters), as on /api/v1 (`stored-text.ts`). */
function stringOf(value: unknown, field: string, max: number): string {
  const text = boundedText(value, max);
  if (text === null || text.includes('\u0000')) throw invalidValue(`${field} must be a non-empty string of at most ${max} characters`);
  return text;
}

/** The address among `emails`: the primary one, else the work one, else the first. */
function emailOf(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const items = value.filter((item): item is { value: unknown; type?: unknown; primary?: unknown } => typeof item === 'object' && item !== null);
  const chosen = items.find((item) => item.primary === true || item.primary === 'True' || item.primary === 'true') ?? items.find((item) => item.type === 'work') ?? items[0];
  return chosen === undefined ? undefined : stringOf(chosen.value, 'emails.value', 254);
}

const ENTERPRISE_EXTENSION = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:user:';
const CORE_USER = 'urn:ietf:params:scim:schemas:core:2.0:user:';

/** The attributes kept as text, by their lower-case path: the change they make, their SCIM name (in errors), their longest value. */
// A Map, not an object: a path such as `constructor` must find nothing.
const TEXT_ATTRIBUTES = new Map<string, { member: 'userName' | 'displayName' | 'formatted' | 'givenName' | 'familyName'; name: string; maxLength: number }>([
  ['username', { member: 'userName', name: 'userName', maxLength: 254 }],
  ['displayname', { member: 'displayName', name: 'displayName', maxLength: 200 }],
  ['name.formatted', { member: 'formatted', name: 'name.formatted', maxLength: 200 }],
  ['name.givenname', { member: 'givenName', name: 'name.givenName', maxLength: 100 }],
  ['name.familyname', { member: 'familyName', name: 'name.familyName', maxLength: 100 }],
]);

/** One attribute (a path or an object key) set to a value; unknown attributes change nothing. */
function setUserAttribute(changes: UserChanges, rawPath: string, value: unknown): void {
  let path = rawPath.toLowerCase();
  if (path.startsWith(ENTERPRISE_EXTENSION)) return;
  if (path.startsWith(CORE_USER)) path = path.slice(CORE_USER.length);
  const text = TEXT_ATTRIBUTES.get(path);
  if (text !== undefined) {
    changes[text.member] = stringOf(value, text.name, text.maxLength);
    return;
  }
  switch (path) {
    case 'externalid':
      changes.externalId = value === null ? null : stringOf(value, 'externalId', 255);
      return;
    case 'active':
      changes.active = booleanOf(value, 'active');
      return;
    case 'name':
      if (typeof value === 'object' && value !== null) for (const [key, part] of Object.entries(value)) setUserAttribute(changes, `name.${key}`, part);
      return;
    case 'emails':
      changes.email = emailOf(value) ?? changes.email;
      return;
  }
  // emails[type eq "work"].value, emails[primary eq true].value: the address itself.
  if (/^emails\[.*\]\.value$/.test(path)) changes.email = stringOf(value, 'emails.value', 254);
}

/** A user resource (POST, PUT) as the changes it asks for. */
export function userFromResource(body: unknown): UserChanges {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw scimError('BAD_REQUEST', 'The body must be a JSON object', 'invalidSyntax');
  const changes: UserChanges = {};
  for (const [key, value] of Object.entries(body)) if (key !== 'schemas' && key !== 'id' && key !== 'meta' && key !== 'groups') setUserAttribute(changes, key, value);
  if (changes.userName === undefined) throw invalidValue('userName is required');
  return changes;
}

/** A user PATCH as the changes it asks for. Removing externalId clears it; other removals are refused. */
export function userPatch(body: unknown): UserChanges {
  const changes: UserChanges = {};
  for (const op of operationsOf(body)) {
    if (op.op === 'remove') {
      if (op.path?.toLowerCase() === 'externalid') changes.externalId = null;
      else throw scimError('BAD_REQUEST', `${op.path ?? 'The attribute'} cannot be removed`, 'mutability');
      continue;
    }
    if (op.path !== undefined) setUserAttribute(changes, op.path, op.value);
    else if (typeof op.value === 'object' && op.value !== null) for (const [key, value] of Object.entries(op.value)) setUserAttribute(changes, key, value);
    else throw scimError('BAD_REQUEST', 'An operation without a path needs an object value', 'invalidSyntax');
  }
  return changes;
}

/** The name a member is shown by: displayName, else name.formatted, else given and family names, else the address. */
export function fullNameOf(changes: UserChanges, fallback: string): string {
  const parts = [changes.givenName, changes.familyName].filter((part): part is string => part !== undefined);
  return (changes.displayName ?? changes.formatted ?? (parts.length > 0 ? parts.join(' ') : fallback)).slice(0, 200);
}

export interface GroupChanges {
  displayName?: string;
  externalId?: string | null;
  /** Members set as a whole (PUT, replace members). */
  members?: string[];
  add: string[];
  remove: string[];
}

function memberIds(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) => {
    const id = typeof item === 'object' && item !== null ? (item as { value?: unknown }).value : undefined;
    if (typeof id !== 'string') throw invalidValue('Each member needs a value (the user id)');
    return id;
  });
}

function setGroupAttribute(changes: GroupChanges, path: string, value: unknown, op: string): void {
  switch (path.toLowerCase()) {
    case 'displayname':
      changes.displayName = stringOf(value, 'displayName', 200);
      return;
    case 'externalid':
      changes.externalId = value === null ? null : stringOf(value, 'externalId', 255);
      return;
    case 'members':
      if (op === 'add') changes.add.push(...memberIds(value));
      else changes.members = memberIds(value);
      return;
  }
}

export function groupFromResource(body: unknown): GroupChanges {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw scimError('BAD_REQUEST', 'The body must be a JSON object', 'invalidSyntax');
  const changes: GroupChanges = { add: [], remove: [] };
  const resource = body as Record<string, unknown>;
  for (const [key, value] of Object.entries(resource)) setGroupAttribute(changes, key, value, 'replace');
  if (changes.displayName === undefined) throw invalidValue('displayName is required');
  changes.members ??= [];
  return changes;
}

export function groupPatch(body: unknown): GroupChanges {
  const changes: GroupChanges = { add: [], remove: [] };
  for (const op of operationsOf(body)) {
    if (op.op === 'remove') {
      const one = op.path === undefined ? null : memberOfPath(op.path);
      if (one !== null) changes.remove.push(one);
      else if (op.path?.toLowerCase() === 'members') {
        // With a value list, those members; without, every member (RFC 7644 3.5.2.2).
        if (op.value === undefined) changes.members = [];
        else changes.remove.push(...memberIds(op.value));
      } else throw scimError('BAD_REQUEST', `${op.path ?? 'The attribute'} cannot be removed`, 'mutability');
      continue;
    }
    if (op.path !== undefined) setGroupAttribute(changes, op.path, op.value, op.op);
    else if (typeof op.value === 'object' && op.value !== null) for (const [key, value] of Object.entries(op.value)) setGroupAttribute(changes, key, value, op.op);
    else throw scimError('BAD_REQUEST', 'An operation without a path needs an object value', 'invalidSyntax');
  }
  return changes;
}
