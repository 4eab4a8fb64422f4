import type { Static } from 'typebox';
import { recordChange } from '../../../platform/audit/record-change.js';
import { createIdentityService } from '../../identity/identity.service.js';
import type { Caller } from '../../../platform/auth/principal.js';
import type { PrincipalResolver } from '../../../platform/auth/principal-resolver.js';
import type { Executor } from '../../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../../platform/db/transaction.js';
import type { ChangeTerms } from '../../../platform/versions/change-terms.js';
import { AppError, invalidState, notFound } from '../../../platform/errors/app-error.js';
import type { Platform } from '../../../platform/module.js';
import { requireSuperAdminManager } from '../admin.policy.js';
import { findActiveUserByEmail, findSuperAdmin, listSuperAdmins, lockActiveSuperAdmins } from './super-admins.repository.js';
import type { AddedSuperAdmin, AddSuperAdminBody, SuperAdmin } from './super-admins.schemas.js';

export interface SuperAdminsServiceDeps {
  db: Executor;
  principals: Pick<PrincipalResolver, 'invalidateUser'>;
  mail: Platform['mail'];
}

/** A super admin's grant, creation and revocation: entries about a user on the platform's trail (no enterprise). */
const SUPER_ADMIN_ENTRY = { enterpriseId: null, entityType: 'user' } as const;

/** The platform's administrators: listed, added (promoted or invited) and removed, never down to none. */
export function createSuperAdminsService({ db, principals, mail }: SuperAdminsServiceDeps) {
  return {
    async list(caller: Caller): Promise<Static<typeof SuperAdmin>[]> {
      requireSuperAdminManager(caller);
      return listSuperAdmins(db);
    },

    async add(caller: Caller, body: Static<typeof AddSuperAdminBody>, terms: ChangeTerms): Promise<{ created: boolean; data: Static<typeof AddedSuperAdmin> }> {
      requireSuperAdminManager(caller);
      const email = body.email.toLowerCase();
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const identity = createIdentityService({ db: trx, principals, mail });
        const existing = await findActiveUserByEmail(trx, email);
        if (existing?.is_super_admin) throw new AppError('CONFLICT', 'This user is a super admin already');
        if (existing?.is_member) {
          throw new AppError('CONFLICT', 'This user belongs to an enterprise: super admins belong to none (deactivate the membership first)');
        }
        if (existing !== undefined) {
          await identity.setSuperAdmin(existing.user_id, true, new Date());
          // A promoted user who never set a password gets the link to set one, as a new super admin does.
          const invitation = existing.has_password
            ? null
            : await identity.invite({
                user: { id: existing.user_id, email: existing.email, full_name: existing.full_name },
                enterprise: null,
                inviter: { userId: caller.userId, fullName: caller.fullName },
                role: 'super_admin',
              });
          await recordChange(trx, caller, { ...SUPER_ADMIN_ENTRY, action: 'update', entityId: existing.user_id, details: { change: 'super_admin_granted', email, invited: invitation !== null } });
          return { created: false, data: { ...(await findSuperAdmin(trx, existing.user_id)), invitation } };
        }
        const user = await identity.createUser({ email, full_name: body.full_name, is_super_admin: true });
        const invitation = await identity.invite({
          user,
          enterprise: null,
          inviter: { userId: caller.userId, fullName: caller.fullName },
          role: 'super_admin',
        });
        await recordChange(trx, caller, {
          ...SUPER_ADMIN_ENTRY,
          action: 'create',
          entityId: user.id,
          details: { email, super_admin: true, invitation_expires_at: invitation.expires_at.toISOString() },
        });
        return { created: true, data: { ...(await findSuperAdmin(trx, user.id)), invitation } };
      });
    },

    /** Demotes; the last active super admin stays (checked under the lock of every active one). */
    async remove(caller: Caller, userId: string): Promise<void> {
      requireSuperAdminManager(caller);
      await inTransaction(db, async ({ trx }) => {
        const active = await lockActiveSuperAdmins(trx);
        if (!active.some((row) => row.id === userId)) throw notFound('Super admin');
        if (active.length <= 1) throw invalidState('The last active super admin cannot be removed');
        await createIdentityService({ db: trx, principals, mail }).setSuperAdmin(userId, false, new Date());
        await recordChange(trx, caller, {
          ...SUPER_ADMIN_ENTRY,
          action: 'update',
          entityId: userId,
          details: { change: 'super_admin_revoked', self: userId === caller.userId, remaining: active.length - 1 },
        });
      });
    },
  };
}

export type SuperAdminsService = ReturnType<typeof createSuperAdminsService>;
