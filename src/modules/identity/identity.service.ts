import type { Kysely } from 'kysely';
import type { PrincipalResolver } from '../../platform/auth/principal-resolver.js';
import type { DB, Executor } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import type { MailDelivery } from '../../platform/mail/delivery.js';
import { queueInvitation, type Invitation, type InvitationRequest } from './onboarding-mail.js';
import { revokeOneTimeTokens } from './one-time-tokens.repository.js';
import { revokeUserSessions } from './sessions.repository.js';
import { deactivateUser, insertUser, linkExternalSubject as linkSubject, reactivateUser, setSuperAdmin, updateProfile } from './users.repository.js';

export interface IdentityServiceDeps {
  /** The database, or the caller's open transaction to join: an identity changes with the membership and the audit entry that explain it. */
  db: Executor;
  principals: Pick<PrincipalResolver, 'invalidateUser'>;
  mail: Pick<MailDelivery, 'wake'>;
}

/**
 * Identities as the other modules change them (enterprise members, super admins), always in the caller's
 * transaction, so that the membership, the identity and the audit entry commit as one. What follows a
 * commit is done here: an invitation's mail is woken, and a user whose rights changed is dropped from the
 * principal cache of this instance (others within PRINCIPAL_TTL_MS).
 */
export function createIdentityService({ db, principals, mail }: IdentityServiceDeps) {
  return {
    /**
     * A new identity without a password: its invitation (`invite`) lets its owner set one. An e-mail of an
     * active user is refused by users_active_email_key (409); one of a deactivated user starts a new identity.
     */
    async createUser(values: { email: string; full_name: string; is_super_admin?: boolean }) {
      return inTransaction(db, ({ trx }) => insertUser(trx, values));
    },

    /** Queues the invitation mail (its link and outbox row in the caller's transaction); it goes out once that commits. */
    async invite(request: InvitationRequest): Promise<Invitation> {
      return inTransaction(db, async ({ trx, onCommit }) => {
        const invitation = await queueInvitation(trx, request);
        onCommit(() => mail.wake());
        return invitation;
      });
    },

    /** A new e-mail or name, as the enterprise's directory says (SCIM); the cached principal follows on commit. */
    async updateProfile(userId: string, changes: { email?: string; full_name?: string }, at: Date): Promise<void> {
      await inTransaction(db, async ({ trx, onCommit }) => {
        await updateProfile(trx, userId, changes, at);
        onCommit(() => principals.invalidateUser(userId));
      });
    },

    /** The same identity back, password and history included. */
    async reactivate(userId: string, at: Date): Promise<void> {
      await inTransaction(db, ({ trx }) => reactivateUser(trx, userId, at));
    },

    /**
     * Soft delete (D9.3): the identity inactive, its open links revoked and every session ended, so that its
     * tokens are refused at once after commit. Returns how many sessions ended.
     */
    async deactivate(userId: string, at: Date): Promise<number> {
      return inTransaction(db, async ({ trx, onCommit }) => {
        await deactivateUser(trx, userId, at);
        await revokeOneTimeTokens(trx, userId, at);
        const sessions = await revokeUserSessions(trx, userId, 'user deactivated');
        onCommit(() => principals.invalidateUser(userId));
        return sessions.length;
      });
    },

    /** Promotes or demotes a super admin (D9 and the platform's administration). */
    async setSuperAdmin(userId: string, superAdmin: boolean, at: Date): Promise<void> {
      await inTransaction(db, async ({ trx, onCommit }) => {
        await setSuperAdmin(trx, userId, superAdmin, at);
        onCommit(() => principals.invalidateUser(userId));
      });
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;

/**
 * External mode (AUTH_MODE=external): the principal resolver links a provider's subject to our user on
 * first sight (platform/auth/principal-resolver.ts); the composition root hands it this function.
 */
export function linkExternalSubject(db: Kysely<DB>, email: string, subject: string): Promise<string | null> {
  return linkSubject(db, email, subject);
}
