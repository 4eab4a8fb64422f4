import { sql, type Transaction } from 'kysely';
import type { DB, Executor } from '../../platform/db/schema.js';

/**
 * Invitation and recovery links (the identity module owns auth_one_time_tokens). A row is created in the
 * transaction that decides to send the link; the token itself is minted when its mail goes out
 * (credentials.ts), so only its SHA-256 is ever stored, and a link is one use.
 */

export type OneTimeKind = 'invite' | 'recovery';

export const ONE_TIME_TTL_MS: Record<OneTimeKind, number> = {
  invite: 7 * 24 * 3600 * 1000,
  recovery: 3600 * 1000,
};

/** A new link replaces the user's open links of the same kind: only the latest invitation or recovery works. */
export async function createOneTimeToken(
  trx: Transaction<DB>,
  values: { userId: string; kind: OneTimeKind; enterpriseId: string | null; invitedBy: string | null; redirectTo: string | null; now: Date },
) {
  await revokeOneTimeTokens(trx, values.userId, values.now, values.kind);
  return trx
    .insertInto('auth_one_time_tokens')
    .values({
      user_id: values.userId,
      kind: values.kind,
      enterprise_id: values.enterpriseId,
      invited_by: values.invitedBy,
      redirect_to: values.redirectTo,
      // From the transaction's clock, as created_at: exactly 7 days (or an hour) after the issue.
      expires_at: sql<Date>`now() + make_interval(secs => ${ONE_TIME_TTL_MS[values.kind] / 1000})`,
    })
    .returning(['id', 'created_at', 'expires_at'])
    .executeTakeFirstOrThrow();
}

/** Every open link of a user ends (deactivation, a password set), or only those of one kind (a new link's). */
export async function revokeOneTimeTokens(db: Executor, userId: string, at: Date, kind?: OneTimeKind): Promise<void> {
  await db
    .updateTable('auth_one_time_tokens')
    .set({ revoked_at: at })
    .where('user_id', '=', userId)
    .$if(kind !== undefined, (query) => query.where('kind', '=', kind!))
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Gives a still usable link a fresh token (at each send attempt); undefined when it is no longer usable. */
export async function mintOneTimeToken(db: Executor, id: string, hash: string, now: Date) {
  return db
    .updateTable('auth_one_time_tokens')
    .set({ token_hash: hash })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['id', 'kind', 'user_id', 'expires_at', 'redirect_to'])
    .executeTakeFirst();
}

/** The link a presented token names, locked, so that two presentations of it cannot both use it. */
export async function findOneTimeTokenForUse(trx: Transaction<DB>, hash: string) {
  return trx
    .selectFrom('auth_one_time_tokens')
    .select(['id', 'user_id', 'kind', 'expires_at', 'used_at', 'revoked_at', 'redirect_to'])
    .where('token_hash', '=', hash)
    .forUpdate()
    .executeTakeFirst();
}

export async function markOneTimeTokenUsed(trx: Transaction<DB>, id: string, at: Date): Promise<void> {
  await trx.updateTable('auth_one_time_tokens').set({ used_at: at }).where('id', '=', id).execute();
}
