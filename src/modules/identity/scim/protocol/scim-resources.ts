import type { GroupRow } from '../scim-groups.repository.js';
import type { ScimUserRow } from '../scim-users.repository.js';

/** RFC 7643 representations of members (User) and pushed groups (Group), and RFC 7644's list answer. */

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

export function presentUser(row: ScimUserRow, base: string) {
  return {
    schemas: [USER_SCHEMA],
    id: row.id,
    ...(row.external_id === null ? {} : { externalId: row.external_id }),
    userName: row.email,
    name: { formatted: row.full_name },
    displayName: row.full_name,
    emails: [{ value: row.email, type: 'work', primary: true }],
    active: row.active,
    groups: row.groups.map((group) => ({ ...group, $ref: `${base}/Groups/${group.value}` })),
    meta: {
      resourceType: 'User',
      created: row.created_at.toISOString(),
      lastModified: new Date(row.updated_at).toISOString(),
      location: `${base}/Users/${row.id}`,
    },
  };
}

export function presentGroup(row: GroupRow, members: { user_id: string; email: string }[] | null, base: string) {
  return {
    schemas: [GROUP_SCHEMA],
    id: row.id,
    ...(row.external_id === null ? {} : { externalId: row.external_id }),
    displayName: row.display_name,
    ...(members === null ? {} : { members: members.map((m) => ({ value: m.user_id, display: m.email, $ref: `${base}/Users/${m.user_id}` })) }),
    meta: {
      resourceType: 'Group',
      created: row.created_at.toISOString(),
      lastModified: row.updated_at.toISOString(),
      location: `${base}/Groups/${row.id}`,
    },
  };
}

export function listResponse<T>(resources: T[], total: number, startIndex: number) {
  return { schemas: [LIST_SCHEMA], totalResults: total, startIndex, itemsPerPage: resources.length, Resources: resources };
}

/** startIndex (1-based) and count (at most 100, as D2's pages), as RFC 7644 3.4.2.4 pages a list. */
export function pageOf(query: { startIndex?: string; count?: string }): { startIndex: number; count: number } {
  const startIndex = Math.max(1, Number.parseInt(query.startIndex ?? '1', 10) || 1);
  const raw = Number.parseInt(query.count ?? '100', 10);
  const count = Number.isNaN(raw) ? 100 : Math.min(100, Math.max(0, raw));
  return { startIndex, count };
}
