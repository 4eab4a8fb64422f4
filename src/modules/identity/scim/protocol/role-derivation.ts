import type { Transaction } from 'kysely';
import { assignmentKey, type EntityAssignment } from '../../../../platform/auth/principal.js';
import type { DB } from '../../../../platform/db/schema.js';
import type { MembersProvisioning } from '../../../admin/members-provisioning.service.js';
import { UNMAPPED_ROLE, directoryDecidesRoleOf, groupsOfRole, roleDiffers, strongestMappedRole } from '../../integrations.policy.js';
import { mappedGroupsOf } from '../scim-groups.repository.js';

/**
 * A provisioned member's role and entity roles follow their mapped groups (decisions.md, "SCIM
 * provisioning"): the strongest mapped role wins, with the entity assignments of the groups of that role
 * only (a reviewer group's entities never become an assessor's); in no mapped group, a reviewer with no
 * assignments. A client admin's role is not the directory's to change. Recomputed for the members a change
 * touches: their groups, or a group's mapping.
 */
export async function deriveRoles(trx: Transaction<DB>, enterpriseId: string, userIds: readonly string[], members: MembersProvisioning): Promise<void> {
  const unique = [...new Set(userIds)];
  const groups = await mappedGroupsOf(trx, enterpriseId, unique);
  for (const userId of unique) {
    const member = await members.membership(enterpriseId, userId);
    if (member === undefined || !directoryDecidesRoleOf(member.role)) continue;
    const mine = groups.filter((group) => group.user_id === userId);
    const role = strongestMappedRole(mine.map((group) => group.role!)) ?? UNMAPPED_ROLE;
    const assignments = new Map<string, EntityAssignment>();
    for (const group of groupsOfRole(mine, role)) {
      for (const a of group.assignments) assignments.set(assignmentKey(a), a);
    }
    if (roleDiffers(member.role, role)) await members.setRole(enterpriseId, userId, member.id, member.role, role);
    await members.setEntityRoles(enterpriseId, userId, [...assignments.values()]);
  }
}
