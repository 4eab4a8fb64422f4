import type { Static } from 'typebox';
import { trailOf } from '../../../platform/audit/audit-events.js';
import { recordChange } from '../../../platform/audit/record-change.js';
import type { Caller } from '../../../platform/auth/principal.js';
import type { PrincipalResolver } from '../../../platform/auth/principal-resolver.js';
import type { Executor } from '../../../platform/db/schema.js';
import { inTransaction, joinWork, type UnitOfWork } from '../../../platform/db/transaction.js';
import type { ChangeTerms } from '../../../platform/versions/change-terms.js';
import { notFound } from '../../../platform/errors/app-error.js';
import { requireUserAdministrator } from '../admin.policy.js';
import { requireManagedMember } from '../users/users.service.js';
import type { CreateEntityRoleBody, EntityRole, EntityRoleListItem } from './entity-roles.schemas.js';
import { deleteEntityRole, insertEntityRole, listEntityRoles } from './entity-roles.repository.js';

export interface EntityRolesServiceDeps {
  /** The database, or the caller's open transaction to join. */
  db: Executor;
  principals: Pick<PrincipalResolver, 'invalidateUser'>;
}

/** The change each kind of entry names (the operation comes from the route). */
const ROLE_CHANGES = {
  added: { change: 'entity_role_added' },
  removed: { change: 'entity_role_removed' },
} as const;

/**
 * Entity roles of active members. A change is recorded as an `update` of the user (the interface's entity
 * types have no entity role) and drops the user's cached principal on commit, so that their scope
 * changes with their next request.
 */
export function createEntityRolesService({ db, principals }: EntityRolesServiceDeps) {
  /** Adding and removing are recorded alike, in the change's transaction; the cache drop waits for the commit. */
  async function recordRoleChange(
    { trx, onCommit }: UnitOfWork,
    caller: Caller,
    member: { user_id: string; enterprise_id: string },
    role: { id: string; legal_entity_id: string; business_unit_id: string | null },
    kind: keyof typeof ROLE_CHANGES,
  ) {
    const userId = member.user_id;
    await recordChange(trx, caller, {
      enterpriseId: trailOf(caller),
      action: 'update',
      entityType: 'user',
      entityId: userId,
      details: {
        ...ROLE_CHANGES[kind],
        enterprise_id: member.enterprise_id,
        entity_role_id: role.id,
        legal_entity_id: role.legal_entity_id,
        business_unit_id: role.business_unit_id,
      },
    });
    onCommit(() => principals.invalidateUser(userId));
  }

  return {
    async list(caller: Caller, userId: string): Promise<Static<typeof EntityRoleListItem>[]> {
      requireUserAdministrator(caller);
      const member = await requireManagedMember(db, caller, userId);
      const rows = await listEntityRoles(db, member.enterprise_id, userId);
      return rows;
    },

    async create(caller: Caller, userId: string, body: Static<typeof CreateEntityRoleBody>, terms: ChangeTerms): Promise<Static<typeof EntityRole>> {
      requireUserAdministrator(caller);
      return inTransaction(joinWork(db, terms.work), async ({ trx, onCommit }) => {
        const member = await requireManagedMember(trx, caller, userId, true);
        const role = await insertEntityRole(trx, member.enterprise_id, {
          user_id: userId,
          legal_entity_id: body.legal_entity_id,
          business_unit_id: body.business_unit_id ?? null,
        });
        await recordRoleChange({ trx, onCommit }, caller, member, role, 'added');
        return role;
      });
    },

    async remove(caller: Caller, userId: string, roleId: string) {
      requireUserAdministrator(caller);
      await inTransaction(db, async ({ trx, onCommit }) => {
        const member = await requireManagedMember(trx, caller, userId, true);
        const role = await deleteEntityRole(trx, member.enterprise_id, userId, roleId);
        if (role === undefined) throw notFound('Entity role');
        await recordRoleChange({ trx, onCommit }, caller, member, role, 'removed');
      });
    },
  };
}

export type EntityRolesService = ReturnType<typeof createEntityRolesService>;
