import type { Kysely } from 'kysely';
import type { DB } from '../../../../platform/db/schema.js';
import { inTransaction } from '../../../../platform/db/transaction.js';
import { notFound } from '../../../../platform/errors/app-error.js';
import { createMembersProvisioning, type MembersProvisioningDeps, type ProvisioningActor } from '../../../admin/members-provisioning.service.js';
import { UNMAPPED_ROLE } from '../../integrations.policy.js';
import { countUsers, findUser, isProvisioned, listUsers, markProvisioned } from '../scim-users.repository.js';
import { equalityFilter } from './scim-filter.js';
import { fullNameOf, userFromResource, userPatch, type UserChanges } from './scim-patch.js';
import { listResponse, pageOf, presentUser } from './scim-resources.js';
import { deriveRoles } from './role-derivation.js';
import { replaceAndPatch } from './scim-writes.js';
import { invalidValue } from './scim-errors.js';

/** Where a SCIM call comes from: its token's enterprise (the only one it may touch) and the audit actor. */
export interface ScimCaller {
  enterpriseId: string;
  base: string;
  actor: ProvisioningActor;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const addressOf = (changes: UserChanges): string | undefined => {
  const address = (changes.userName ?? changes.email)?.toLowerCase();
  if (address !== undefined && !EMAIL.test(address)) throw invalidValue('userName must be an e-mail address');
  return address;
};

/**
 * SCIM Users: the enterprise's members. A new user is a member (an assessor or reviewer by their groups,
 * a reviewer with nothing assigned until then), never a super admin, never in another enterprise: every
 * lookup is by the token's enterprise, so another's ids are 404.
 */
export function createScimUsersService(db: Kysely<DB>, deps: MembersProvisioningDeps) {
  const read = async (caller: ScimCaller, userId: string) => {
    const row = await findUser(db, caller.enterpriseId, userId);
    if (row === undefined) throw notFound('User');
    return presentUser(row, caller.base);
  };

  /** Name, address, externalId and activity as asked; the member becomes the directory's. */
  async function apply(caller: ScimCaller, userId: string, changes: UserChanges) {
    await inTransaction(db, async ({ trx }) => {
      const members = createMembersProvisioning(trx, caller.actor, deps);
      const member = await members.membership(caller.enterpriseId, userId);
      if (member === undefined) throw notFound('User');
      const profile: { email?: string; full_name?: string } = {};
      const address = addressOf(changes);
      if (address !== undefined && address !== member.email.toLowerCase()) profile.email = address;
      const named = changes.displayName !== undefined || changes.formatted !== undefined || changes.givenName !== undefined || changes.familyName !== undefined;
      const fullName = fullNameOf(changes, member.full_name);
      if (named && fullName !== member.full_name) profile.full_name = fullName;
      const active = member.active && member.user_active;
      // A deactivated member is reactivated before anything else changes (its address may be taken meanwhile: 409).
      if (changes.active === true && !active) await members.reactivate(caller.enterpriseId, userId, member);
      if (Object.keys(profile).length > 0) await members.updateProfile(caller.enterpriseId, userId, profile, member);
      if (changes.active === false && active) await members.deactivate(caller.enterpriseId, userId, member.id);
      const firstSight = !(await isProvisioned(trx, caller.enterpriseId, userId));
      await markProvisioned(trx, caller.enterpriseId, userId, changes.externalId);
      // A member the directory takes over gets the role its groups give (none yet: a reviewer without assignments).
      if (firstSight) await deriveRoles(trx, caller.enterpriseId, [userId], members);
    });
  }

  return {
    async list(caller: ScimCaller, query: { filter?: string; startIndex?: string; count?: string }) {
      const filter = equalityFilter(query.filter, ['userName', 'externalId', 'id'] as const);
      const { startIndex, count } = pageOf(query);
      const [total, rows] = await Promise.all([countUsers(db, caller.enterpriseId, filter), count === 0 ? [] : listUsers(db, caller.enterpriseId, filter, count, startIndex - 1)]);
      return listResponse(rows.map((row) => presentUser(row, caller.base)), total, startIndex);
    },

    get: read,

    async create(caller: ScimCaller, body: unknown) {
      const changes = userFromResource(body);
      const email = addressOf(changes)!;
      const userId = await inTransaction(db, async ({ trx }) => {
        const members = createMembersProvisioning(trx, caller.actor, deps);
        const { user, member } = await members.addMember(caller.enterpriseId, { email, full_name: fullNameOf(changes, email), role: UNMAPPED_ROLE });
        await markProvisioned(trx, caller.enterpriseId, user.id, changes.externalId ?? null);
        if (changes.active === false) await members.deactivate(caller.enterpriseId, user.id, member.id);
        return user.id;
      });
      return read(caller, userId);
    },

    ...replaceAndPatch({ fromResource: userFromResource, fromPatch: userPatch, apply, read }),

    /** DELETE deactivates (D9.3's soft delete: history kept, sessions ended); a later GET shows active false. */
    async remove(caller: ScimCaller, userId: string) {
      await apply(caller, userId, { active: false });
    },
  };
}

export type ScimUsersService = ReturnType<typeof createScimUsersService>;
