import type { Static } from 'typebox';
import { auditFrom, trailOf } from '../../../platform/audit/audit-events.js';
import { writeAudit } from '../../../platform/audit/audit-writer.js';
import type { Caller, Principal } from '../../../platform/auth/principal.js';
import type { PrincipalResolver } from '../../../platform/auth/principal-resolver.js';
import { revokeUserSessions } from '../../../platform/auth/sessions.js';
import type { Executor } from '../../../platform/db/schema.js';
import { inTransaction, joinRequestWork } from '../../../platform/db/transaction.js';
import { invalidState, notFound } from '../../../platform/http/errors.js';
import { administeredEnterprise, requireEnterpriseAdmin, requireGrantableRole } from '../admin.policy.js';
import { requireEnterpriseExists } from '../enterprises/enterprises.service.js';
import type { CreatedUser, CreateUserBody, EnterpriseUser } from './users.schemas.js';
import { deactivateUser, insertUser } from '../../../platform/auth/users.repository.js';
import { deactivateMember, findActiveMember, insertMember, listMembers } from './users.repository.js';

export interface UsersServiceDeps {
  /** The database, or the caller's open transaction to join. */
  db: Executor;
  principals: Pick<PrincipalResolver, 'invalidateUser'>;
}

/**
 * The active member a user administrator may act on: in the caller's enterprise for a client admin, in
 * any enterprise for a super admin. Anyone else (another enterprise, a super admin, a deactivated user,
 * an unknown id) is 404, so nothing confirms that a user exists elsewhere (D2.2).
 */
export async function requireManagedMember(db: Executor, caller: Principal, userId: string, lock = false) {
  const member = await findActiveMember(db, administeredEnterprise(caller), userId, lock);
  if (member === undefined) throw notFound('User');
  return member;
}

export function createUsersService({ db, principals }: UsersServiceDeps) {
  return {
    async list(caller: Caller, enterpriseId: string, includeInactive: boolean): Promise<Static<typeof EnterpriseUser>[]> {
      requireEnterpriseAdmin(caller, enterpriseId);
      await requireEnterpriseExists(db, enterpriseId);
      const rows = await listMembers(db, enterpriseId, includeInactive);
      return rows.map((row) => ({
        id: row.id,
        user_id: row.user_id,
        email: row.email,
        full_name: row.full_name,
        role: row.role,
        created_at: row.created_at,
        // 2.7: last_login "may be absent": absent until the first sign-in.
        ...(row.last_sign_in_at !== null ? { last_login: row.last_sign_in_at } : {}),
        active: row.active,
        deactivated_at: row.deactivated_at,
        entity_assignments: row.entity_assignments ?? [],
      }));
    },

    /**
     * The user has no password yet (password_hash null): it is set through the identity provider's admin
     * call (D3) with the returned user_id. An e-mail of an active user is refused by the partial unique
     * index users_active_email_key (409); one of a deactivated user starts a new identity.
     */
    async create(caller: Caller, enterpriseId: string, body: Static<typeof CreateUserBody>): Promise<Static<typeof CreatedUser>> {
      requireEnterpriseAdmin(caller, enterpriseId);
      requireGrantableRole(caller, body.role);
      return inTransaction(joinRequestWork(db, caller), async ({ trx }) => {
        await requireEnterpriseExists(trx, enterpriseId);
        const user = await insertUser(trx, { email: body.email.toLowerCase(), full_name: body.full_name });
        const member = await insertMember(trx, enterpriseId, user.id, body.role);
        await writeAudit(trx, {
          enterpriseId: trailOf(caller),
          ...auditFrom(caller),
          action: 'create',
          entityType: 'user',
          entityId: user.id,
          details: {
            enterprise_id: enterpriseId,
            membership_id: member.id,
            email: user.email,
            role: member.role,
          },
        });
        return {
          id: member.id,
          user_id: user.id,
          email: user.email,
          full_name: user.full_name,
          role: member.role,
          created_at: member.created_at,
        };
      });
    },

    /**
     * Soft delete (D9.3): user and membership inactive, every session revoked in the same transaction, and
     * on commit the cached principal dropped so that the user's access tokens are refused at once.
     */
    async deactivate(caller: Caller, enterpriseId: string, userId: string) {
      requireEnterpriseAdmin(caller, enterpriseId);
      if (userId === caller.userId) throw invalidState('You cannot deactivate yourself');
      await inTransaction(db, async ({ trx, onCommit }) => {
        await requireEnterpriseExists(trx, enterpriseId);
        const member = await findActiveMember(trx, enterpriseId, userId, true);
        if (member === undefined) throw notFound('User');
        const at = new Date();
        await deactivateMember(trx, enterpriseId, member.id, at);
        await deactivateUser(trx, userId, at);
        const sessions = await revokeUserSessions(trx, userId, 'user deactivated');
        await writeAudit(trx, {
          enterpriseId: trailOf(caller),
          ...auditFrom(caller),
          action: 'delete',
          entityType: 'user',
          entityId: userId,
          details: {
            enterprise_id: enterpriseId,
            membership_id: member.id,
            email: member.email,
            role: member.role,
            sessions_revoked: sessions.length,
          },
        });
        onCommit(() => principals.invalidateUser(userId));
      });
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
