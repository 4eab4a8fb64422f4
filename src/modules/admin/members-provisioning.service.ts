import type { Transaction } from 'kysely';
import type { AuditActor } from '../../platform/audit/audit-events.js';
import { writeAudit } from '../../platform/audit/audit-writer.js';
import type { PrincipalResolver } from '../../platform/auth/principal-resolver.js';
import type { DB } from '../../platform/db/schema.js';
import type { MemberRole } from '../../platform/db/tables/users.js';
import type { MailDelivery } from '../../platform/mail/delivery.js';
import { createIdentityService } from '../identity/identity.service.js';
import { replaceEntityRoles } from './entity-roles/entity-roles.repository.js';
import { findMembershipForUpdate, insertMember, setMemberActivity, setMemberRole } from './users/users.repository.js';

/**
 * Who provisions, for the audit entries: no person (user_id null), the channel and its credential in
 * `action_details` (`actor: 'scim'`, the token's id and name), and where the request came from.
 */
export interface ProvisioningActor {
  details: Record<string, unknown>;
  ip: string;
  userAgent: string | null;
  operation: string | null;
}

const NO_PERSON: AuditActor = { userId: null, email: null, fullName: null };

export interface MembersProvisioningDeps {
  principals: Pick<PrincipalResolver, 'invalidateUser'>;
  mail: Pick<MailDelivery, 'wake'>;
}

/**
 * Members as an enterprise's directory changes them (SCIM): in the directory's request transaction, each
 * change audited as an administrator's would be, with the directory as its actor. The policy is the
 * caller's (a SCIM token acts on its own enterprise only, and never grants admin): these functions write
 * what they are told, for the enterprise they are given.
 */
export function createMembersProvisioning(trx: Transaction<DB>, actor: ProvisioningActor, { principals, mail }: MembersProvisioningDeps) {
  const identity = createIdentityService({ db: trx, principals, mail });
  const audit = (enterpriseId: string, action: 'create' | 'update' | 'delete', userId: string, details: Record<string, unknown>) =>
    writeAudit(trx, {
      enterpriseId,
      actor: NO_PERSON,
      action,
      entityType: 'user',
      entityId: userId,
      details: { ...actor.details, enterprise_id: enterpriseId, ...details },
      operation: actor.operation,
      ip: actor.ip,
      userAgent: actor.userAgent,
    });

  return {
    /** The membership (active or not) and its identity, locked for the change. */
    membership: (enterpriseId: string, userId: string) => findMembershipForUpdate(trx, enterpriseId, userId),

    /** A new identity and membership without an invitation: the person signs in through their organisation, or asks for a link. */
    async addMember(enterpriseId: string, values: { email: string; full_name: string; role: MemberRole }) {
      const user = await identity.createUser({ email: values.email, full_name: values.full_name });
      const member = await insertMember(trx, enterpriseId, user.id, values.role);
      await audit(enterpriseId, 'create', user.id, { membership_id: member.id, email: user.email, role: member.role });
      return { user, member };
    },

    async updateProfile(enterpriseId: string, userId: string, changes: { email?: string; full_name?: string }, from: { email: string; full_name: string }) {
      await identity.updateProfile(userId, changes, new Date());
      const diff = Object.fromEntries(Object.entries(changes).map(([field, to]) => [field, { from: from[field as keyof typeof from], to }]));
      await audit(enterpriseId, 'update', userId, { changes: diff });
    },

    async setRole(enterpriseId: string, userId: string, memberId: string, from: MemberRole, to: MemberRole) {
      await setMemberRole(trx, enterpriseId, memberId, to);
      await audit(enterpriseId, 'update', userId, { changes: { role: { from, to } } });
    },

    /** The member's entity roles become exactly these; audited when anything changed. */
    async setEntityRoles(enterpriseId: string, userId: string, wanted: readonly { legal_entity_id: string; business_unit_id: string | null }[]) {
      const { added, removed } = await replaceEntityRoles(trx, enterpriseId, userId, wanted);
      if (added.length > 0 || removed.length > 0) {
        await audit(enterpriseId, 'update', userId, { change: 'entity_roles_provisioned', added, removed });
      }
    },

    /** D9.3's soft delete: the membership and identity inactive, every session ended at once. */
    async deactivate(enterpriseId: string, userId: string, memberId: string) {
      const at = new Date();
      await setMemberActivity(trx, enterpriseId, memberId, at);
      const sessions = await identity.deactivate(userId, at);
      await audit(enterpriseId, 'delete', userId, { membership_id: memberId, sessions_revoked: sessions });
    },

    async reactivate(enterpriseId: string, userId: string, member: { id: string; active: boolean; user_active: boolean }) {
      if (!member.user_active) await identity.reactivate(userId, new Date());
      if (!member.active) await setMemberActivity(trx, enterpriseId, member.id, null);
      await audit(enterpriseId, 'update', userId, { change: 'reactivated', membership_id: member.id });
    },
  };
}

export type MembersProvisioning = ReturnType<typeof createMembersProvisioning>;
