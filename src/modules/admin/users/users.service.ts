import type { Static } from 'typebox';
import type { Transaction } from 'kysely';
import type { AuditAction } from '../../../platform/audit/audit-events.js';
import { recordChange } from '../../../platform/audit/record-change.js';
import { lockForChange } from '../../../platform/changes/versioned-change.js';
import type { Caller, Principal } from '../../../platform/auth/principal.js';
import type { PrincipalResolver } from '../../../platform/auth/principal-resolver.js';
import type { DB, Executor } from '../../../platform/db/schema.js';
import { inTransaction, joinWork } from '../../../platform/db/transaction.js';
import type { ChangeTerms } from '../../../platform/versions/change-terms.js';
import { versionState, versioned, type Versioned } from '../../../platform/versions/resource-state.js';
import { invalidState, notFound } from '../../../platform/errors/app-error.js';
import type { Platform } from '../../../platform/module.js';
import { createIdentityService } from '../../identity/identity.service.js';
import { administeredEnterprise, memberAbilities, requireEnterpriseAdmin, requireMemberManager, requireRoleChanger } from '../admin.policy.js';
import { requireEnterpriseExists } from '../enterprises/enterprises.service.js';
import type { ChangeRoleBody, CreatedUser, CreateUserBody, EnterpriseUser, ReactivatedUser, ResentInvitation } from './users.schemas.js';
import {
  countAssignments,
  findActiveMember,
  findMemberView,
  findMembershipForUpdate,
  insertMember,
  listMembers,
  setMemberActivity,
  setMemberRole,
  type MemberView,
} from './users.repository.js';

export interface UsersServiceDeps {
  /** The database, or the caller's open transaction to join. */
  db: Executor;
  principals: Pick<PrincipalResolver, 'invalidateUser'>;
  mail: Platform['mail'];
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

/** The enterprise's active member, locked for a change; 404 for anyone else. */
async function lockActiveMember(db: Executor, enterpriseId: string, userId: string) {
  const member = await findActiveMember(db, enterpriseId, userId, true);
  if (member === undefined) throw notFound('User');
  return member;
}

/** A member as the list and the answer to a role change show them, with what the caller may do to them now. */
function presentMember(caller: Principal, enterpriseId: string, row: MemberView): Static<typeof EnterpriseUser> {
  return {
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
    invitation:
      row.invitation === null
        ? null
        : {
            ...row.invitation,
            sent_at: new Date(row.invitation.sent_at),
            expires_at: new Date(row.invitation.expires_at),
            accepted_at: row.invitation.accepted_at === null ? null : new Date(row.invitation.accepted_at),
            delivered_at: row.invitation.delivered_at === null ? null : new Date(row.invitation.delivered_at),
          },
    abilities: memberAbilities(caller, enterpriseId, row),
  };
}

/**
 * A member as the answer to a change shows them, with the membership's version as its state: what If-Match
 * names is the membership (its role and activity). The answer also shows the invitation, sign-in and entity
 * access, which change through their own operations and have no read of their own to be conditional on.
 */
async function memberState(db: Executor, caller: Principal, enterpriseId: string, userId: string, version: number): Promise<Versioned<Static<typeof EnterpriseUser>>> {
  const row = await findMemberView(db, enterpriseId, userId);
  if (row === undefined) throw notFound('User');
  return versioned(presentMember(caller, enterpriseId, row), versionState(version));
}

/** Every change of a member is an entry on the user, in the change's transaction (the caller's trail). */
const auditUser = (trx: Transaction<DB>, caller: Caller, action: AuditAction, userId: string, details: Record<string, unknown>) =>
  recordChange(trx, caller, { action, entityType: 'user', entityId: userId, details });

export function createUsersService({ db, principals, mail }: UsersServiceDeps) {
  return {
    async list(caller: Caller, enterpriseId: string, includeInactive: boolean): Promise<Static<typeof EnterpriseUser>[]> {
      requireEnterpriseAdmin(caller, enterpriseId);
      await requireEnterpriseExists(db, enterpriseId);
      return (await listMembers(db, enterpriseId, includeInactive)).map((row) => presentMember(caller, enterpriseId, row));
    },

    /**
     * The user has no password yet (password_hash null), so an invitation is queued in the same
     * transaction and sent after commit: its link lets the user set one. An e-mail of an active user is
     * refused by the partial unique index users_active_email_key (409), and then no mail exists either;
     * one of a deactivated user starts a new identity (reactivate brings the old one back instead).
     */
    async create(caller: Caller, enterpriseId: string, body: Static<typeof CreateUserBody>, terms: ChangeTerms): Promise<Static<typeof CreatedUser>> {
      requireMemberManager(caller, enterpriseId, body.role);
      return inTransaction(joinWork(db, terms.work), async ({ trx }) => {
        const identity = createIdentityService({ db: trx, principals, mail });
        const enterprise = await requireEnterpriseExists(trx, enterpriseId);
        const user = await identity.createUser({ email: body.email.toLowerCase(), full_name: body.full_name });
        const member = await insertMember(trx, enterpriseId, user.id, body.role);
        const invitation = await identity.invite({
          user,
          enterprise,
          inviter: { userId: caller.userId, fullName: caller.fullName },
          role: member.role,
        });
        await auditUser(trx, caller, 'create', user.id, {
          enterprise_id: enterpriseId,
          membership_id: member.id,
          email: user.email,
          role: member.role,
          invitation_expires_at: invitation.expires_at.toISOString(),
        });
        return {
          id: member.id,
          user_id: user.id,
          email: user.email,
          full_name: user.full_name,
          role: member.role,
          created_at: member.created_at,
          invitation,
        };
      });
    },

    /** A new invitation (earlier links stop working) for an active member who has not set a password. */
    async resendInvitation(caller: Caller, enterpriseId: string, userId: string): Promise<Static<typeof ResentInvitation>> {
      requireEnterpriseAdmin(caller, enterpriseId);
      return inTransaction(db, async ({ trx }) => {
        const enterprise = await requireEnterpriseExists(trx, enterpriseId);
        const member = await lockActiveMember(trx, enterpriseId, userId);
        requireMemberManager(caller, enterpriseId, member.role);
        if (member.has_password) throw invalidState('The user has set a password already: they can use password recovery');
        const invitation = await createIdentityService({ db: trx, principals, mail }).invite({
          user: { id: userId, email: member.email, full_name: member.full_name },
          enterprise,
          inviter: { userId: caller.userId, fullName: caller.fullName },
          role: member.role,
        });
        await auditUser(trx, caller, 'update', userId, { change: 'invitation_sent', enterprise_id: enterpriseId, invitation_expires_at: invitation.expires_at.toISOString() });
        return { user_id: userId, email: member.email, invitation };
      });
    },

    /**
     * The same identity and membership back, with the role and entity assignments they had (deactivation
     * keeps both). 409 INVALID_STATE when active; users_active_email_key (409 CONFLICT) when the address
     * now belongs to someone else.
     */
    async reactivate(caller: Caller, enterpriseId: string, userId: string): Promise<Static<typeof ReactivatedUser>> {
      requireEnterpriseAdmin(caller, enterpriseId);
      return inTransaction(db, async ({ trx }) => {
        await requireEnterpriseExists(trx, enterpriseId);
        const member = await findMembershipForUpdate(trx, enterpriseId, userId);
        if (member === undefined) throw notFound('User');
        requireMemberManager(caller, enterpriseId, member.role);
        if (member.active && member.user_active) throw invalidState('The user is active');
        const at = new Date();
        if (!member.user_active) await createIdentityService({ db: trx, principals, mail }).reactivate(userId, at);
        if (!member.active) await setMemberActivity(trx, enterpriseId, member.id, null);
        const assignments = await countAssignments(trx, enterpriseId, userId);
        await auditUser(trx, caller, 'update', userId, { change: 'reactivated', enterprise_id: enterpriseId, membership_id: member.id, role: member.role, entity_assignments: assignments });
        return { id: member.id, user_id: userId, email: member.email, full_name: member.full_name, role: member.role, entity_assignments: assignments };
      });
    },

    /**
     * A new role for an active member (D5 through requireRoleChanger: the role they have and the one given).
     * Their sessions stay: the role is read from the membership at every request (principal-resolver.ts),
     * never from a token, so dropping the cached principal on commit is what moves the rights of every
     * token they hold, on this instance at once and on others within PRINCIPAL_TTL_MS.
     */
    async changeRole(
      caller: Caller,
      enterpriseId: string,
      userId: string,
      body: Static<typeof ChangeRoleBody>,
      terms: ChangeTerms,
    ): Promise<Versioned<Static<typeof EnterpriseUser>>> {
      requireEnterpriseAdmin(caller, enterpriseId);
      if (userId === caller.userId) throw invalidState('You cannot change your own role');
      return inTransaction(db, async ({ trx, onCommit }) => {
        await requireEnterpriseExists(trx, enterpriseId);
        const member = await lockForChange(
          {
            noun: 'User',
            lock: () => findActiveMember(trx, enterpriseId, userId, true),
            authorize: (row) => requireRoleChanger(caller, enterpriseId, row.role, body.role),
          },
          terms,
        );
        const changed = await setMemberRole(trx, enterpriseId, member.id, body.role);
        // The role it had already: nothing written, nothing audited, the same state answered.
        if (changed === undefined) return memberState(trx, caller, enterpriseId, userId, member.row_version);
        await auditUser(trx, caller, 'update', userId, {
          change: 'role_changed',
          enterprise_id: enterpriseId,
          membership_id: member.id,
          changes: { role: { from: member.role, to: body.role } },
        });
        onCommit(() => principals.invalidateUser(userId));
        return memberState(trx, caller, enterpriseId, userId, changed.row_version);
      });
    },

    /**
     * Soft delete (D9.3): user and membership inactive, every session revoked in the same transaction, and
     * on commit the cached principal dropped so that the user's access tokens are refused at once.
     */
    async deactivate(caller: Caller, enterpriseId: string, userId: string) {
      requireEnterpriseAdmin(caller, enterpriseId);
      if (userId === caller.userId) throw invalidState('You cannot deactivate yourself');
      await inTransaction(db, async ({ trx }) => {
        await requireEnterpriseExists(trx, enterpriseId);
        const member = await lockActiveMember(trx, enterpriseId, userId);
        const at = new Date();
        await setMemberActivity(trx, enterpriseId, member.id, at);
        const sessionsRevoked = await createIdentityService({ db: trx, principals, mail }).deactivate(userId, at);
        await auditUser(trx, caller, 'delete', userId, {
          enterprise_id: enterpriseId,
          membership_id: member.id,
          email: member.email,
          role: member.role,
          sessions_revoked: sessionsRevoked,
        });
      });
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
