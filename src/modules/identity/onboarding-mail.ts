import type { Transaction } from 'kysely';
import type { Config } from '../../config.js';
import type { DB, Executor } from '../../platform/db/schema.js';
import type { PrepareMail } from '../../platform/mail/delivery.js';
import { enqueueMail } from '../../platform/mail/outbox.js';
import { inviteMail, recoveryMail, type InviteMailData, type RecoveryMailData } from './mail-templates.js';
import { newOneTimeToken } from './credentials.js';
import { createOneTimeToken, mintOneTimeToken } from './one-time-tokens.repository.js';

/**
 * Invitation and recovery mails: the link row and the outbox row are written in the caller's transaction
 * (the mail exists exactly when the change commits); the token is minted and the message rendered when
 * the outbox sends it (prepareAuthMail).
 */

export interface Invitation {
  /** When the invitation was issued (its mail is queued then and sent right after commit). */
  sent_at: Date;
  expires_at: Date;
}

export interface InvitationRequest {
  user: { id: string; email: string; full_name: string };
  /** null: an invitation to administer the platform (a super admin). */
  enterprise: { id: string; name: string } | null;
  inviter: { userId: string; fullName: string } | null;
  role: string;
}

export async function queueInvitation(trx: Transaction<DB>, invite: InvitationRequest): Promise<Invitation> {
  const link = await createOneTimeToken(trx, {
    userId: invite.user.id,
    kind: 'invite',
    enterpriseId: invite.enterprise?.id ?? null,
    invitedBy: invite.inviter?.userId ?? null,
    redirectTo: null,
    now: new Date(),
  });
  const data: InviteMailData = {
    full_name: invite.user.full_name,
    enterprise_name: invite.enterprise?.name ?? null,
    inviter_name: invite.inviter?.fullName ?? null,
    role: invite.role,
  };
  await enqueueMail(trx, { recipient: invite.user.email, template: 'invite', data: { ...data }, oneTimeTokenId: link.id });
  return { sent_at: link.created_at, expires_at: link.expires_at };
}

export async function queueRecovery(
  trx: Transaction<DB>,
  recovery: { user: { id: string; email: string; full_name: string }; redirectTo: string | null },
): Promise<void> {
  const link = await createOneTimeToken(trx, {
    userId: recovery.user.id,
    kind: 'recovery',
    enterpriseId: null,
    invitedBy: null,
    redirectTo: recovery.redirectTo,
    now: new Date(),
  });
  const data: RecoveryMailData = { full_name: recovery.user.full_name };
  await enqueueMail(trx, { recipient: recovery.user.email, template: 'recovery', data: { ...data }, oneTimeTokenId: link.id });
}

/**
 * Renders an invitation or recovery mail at send time with a freshly minted token. A mail whose link was
 * replaced, used or has expired is dropped, and so is an invitation of a user who has a password by now
 * (the invitation's purpose is done).
 */
export function prepareAuthMail(db: Executor, config: Pick<Config, 'publicUrl' | 'auth'>): PrepareMail {
  return async (row) => {
    if (row.one_time_token_id === null || (row.template !== 'invite' && row.template !== 'recovery')) {
      return { dropped: `unknown mail template ${row.template}` };
    }
    const user = await db
      .selectFrom('users')
      .innerJoin('auth_one_time_tokens as t', 't.user_id', 'users.id')
      .select(['users.active', 'users.password_hash'])
      .where('t.id', '=', row.one_time_token_id)
      .executeTakeFirst();
    if (user === undefined || !user.active) return { dropped: 'the user is not active' };
    if (row.template === 'invite' && user.password_hash !== null) return { dropped: 'the user has set a password' };
    const { token, hash } = newOneTimeToken();
    const link = await mintOneTimeToken(db, row.one_time_token_id, hash, new Date());
    if (link === undefined) return { dropped: 'the link was replaced, used or has expired' };
    const url = new URL(`${config.publicUrl}/auth/v1/verify`);
    url.searchParams.set('token', token);
    url.searchParams.set('type', link.kind);
    url.searchParams.set('redirect_to', link.redirect_to ?? (config.auth.redirectUrls[0] as string));
    return row.template === 'invite'
      ? inviteMail(row.data as InviteMailData, url.toString(), link.expires_at)
      : recoveryMail(row.data as RecoveryMailData, url.toString(), link.expires_at);
  };
}
