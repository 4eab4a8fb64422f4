import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../../../platform/db/schema.js';
import { inTransaction } from '../../../../platform/db/transaction.js';
import { notFound } from '../../../../platform/errors/app-error.js';
import { createMembersProvisioning, type MembersProvisioningDeps } from '../../../admin/members-provisioning.service.js';
import {
  addGroupMembers,
  countGroups,
  deleteGroup,
  findGroup,
  groupMembers,
  insertGroup,
  listGroups,
  lockGroup,
  memberIdsOf,
  removeGroupMembers,
  updateGroup,
} from '../scim-groups.repository.js';
import { membersAmong } from '../scim-users.repository.js';
import { deriveRoles } from './role-derivation.js';
import { invalidValue } from './scim-errors.js';
import { equalityFilter } from './scim-filter.js';
import { groupFromResource, groupPatch, type GroupChanges } from './scim-patch.js';
import { listResponse, pageOf, presentGroup } from './scim-resources.js';
import type { ScimCaller } from './scim-users.service.js';
import { replaceAndPatch } from './scim-writes.js';

/**
 * SCIM Groups: what the directory pushes. Members must be the enterprise's users (another's ids are
 * refused as unknown); every change of membership re-derives the role and entity roles of the members it
 * touches, in the same transaction (role-derivation.ts). The mapping itself (a group's role and entities)
 * is the client admin's, through /api/v1/scim/groups.
 */
export function createScimGroupsService(db: Kysely<DB>, deps: MembersProvisioningDeps) {
  const read = async (caller: ScimCaller, id: string, withMembers = true) => {
    const row = await findGroup(db, caller.enterpriseId, id);
    if (row === undefined) throw notFound('Group');
    return presentGroup(row, withMembers ? await groupMembers(db, caller.enterpriseId, id) : null, caller.base);
  };

  async function applyMembers(trx: Transaction<DB>, caller: ScimCaller, groupId: string, changes: GroupChanges) {
    const named = [...(changes.members ?? []), ...changes.add];
    const known = await membersAmong(trx, caller.enterpriseId, named);
    const unknown = named.filter((id) => !known.includes(id));
    if (unknown.length > 0) throw invalidValue(`Unknown member ${unknown[0]}: members must be users of this enterprise`);
    const before = await memberIdsOf(trx, caller.enterpriseId, groupId);
    if (changes.members !== undefined) {
      await removeGroupMembers(trx, caller.enterpriseId, groupId, 'all');
      await addGroupMembers(trx, caller.enterpriseId, groupId, changes.members);
    }
    await addGroupMembers(trx, caller.enterpriseId, groupId, changes.add);
    await removeGroupMembers(trx, caller.enterpriseId, groupId, changes.remove);
    const after = await memberIdsOf(trx, caller.enterpriseId, groupId);
    const touched = [...before.filter((id) => !after.includes(id)), ...after.filter((id) => !before.includes(id))];
    const members = createMembersProvisioning(trx, caller.actor, deps);
    await deriveRoles(trx, caller.enterpriseId, touched, members);
  }

  async function change(caller: ScimCaller, id: string, changes: GroupChanges) {
    await inTransaction(db, async ({ trx }) => {
      const group = await lockGroup(trx, caller.enterpriseId, id);
      if (group === undefined) throw notFound('Group');
      const fields: { display_name?: string; external_id?: string | null } = {};
      if (changes.displayName !== undefined) fields.display_name = changes.displayName;
      if (changes.externalId !== undefined) fields.external_id = changes.externalId;
      if (Object.keys(fields).length > 0) await updateGroup(trx, caller.enterpriseId, id, fields);
      await applyMembers(trx, caller, id, changes);
    });
  }

  return {
    async list(caller: ScimCaller, query: { filter?: string; startIndex?: string; count?: string; excludedAttributes?: string }) {
      const filter = equalityFilter(query.filter, ['displayName'] as const);
      const { startIndex, count } = pageOf(query);
      const name = filter?.value ?? null;
      const withMembers = !(query.excludedAttributes ?? '').toLowerCase().split(',').includes('members');
      const [total, rows] = await Promise.all([countGroups(db, caller.enterpriseId, name), count === 0 ? [] : listGroups(db, caller.enterpriseId, name, count, startIndex - 1)]);
      const resources = await Promise.all(
        rows.map(async (row) => presentGroup(row, withMembers ? await groupMembers(db, caller.enterpriseId, row.id) : null, caller.base)),
      );
      return listResponse(resources, total, startIndex);
    },

    get: read,

    async create(caller: ScimCaller, body: unknown) {
      const changes = groupFromResource(body);
      const id = await inTransaction(db, async ({ trx }) => {
        const group = await insertGroup(trx, caller.enterpriseId, { display_name: changes.displayName!, external_id: changes.externalId ?? null });
        await applyMembers(trx, caller, group.id, changes);
        return group.id;
      });
      return read(caller, id);
    },

    ...replaceAndPatch({ fromResource: groupFromResource, fromPatch: groupPatch, apply: change, read }),

    /** The group and its memberships go; its members' roles are derived again without it. */
    async remove(caller: ScimCaller, id: string) {
      await inTransaction(db, async ({ trx }) => {
        const group = await lockGroup(trx, caller.enterpriseId, id);
        if (group === undefined) throw notFound('Group');
        const members = await memberIdsOf(trx, caller.enterpriseId, id);
        await deleteGroup(trx, caller.enterpriseId, id);
        await deriveRoles(trx, caller.enterpriseId, members, createMembersProvisioning(trx, caller.actor, deps));
      });
    },
  };
}

export type ScimGroupsService = ReturnType<typeof createScimGroupsService>;
