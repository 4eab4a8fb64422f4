import type { Executor } from '../../../platform/db/schema.js';

/**
 * The one writer of `auth_sign_in_origins`: where each account recently signed in from, as keyed hashes of
 * the address and user agent (sign-in-origins.ts makes them). Bounded: each write keeps the user's
 * MAX_ORIGINS_PER_USER most recent rows of the memory's span and deletes the rest.
 */
export const MAX_ORIGINS_PER_USER = 10;

/** Whether the account signed in from this origin at or after `since`. */
export async function isRecentOrigin(db: Executor, userId: string, originHash: string, since: Date): Promise<boolean> {
  const row = await db
    .selectFrom('auth_sign_in_origins')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('origin_hash', '=', originHash)
    .where('last_seen_at', '>=', since)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records a successful sign-in's origin (in the sign-in's transaction) and prunes the user's others. */
export async function rememberOrigin(db: Executor, userId: string, originHash: string, now: Date, since: Date): Promise<void> {
  await db
    .insertInto('auth_sign_in_origins')
    .values({ user_id: userId, origin_hash: originHash, last_seen_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'origin_hash']).doUpdateSet({ last_seen_at: now }))
    .execute();
  // The sign-in holds the user's row lock, so two sign-ins of one user never prune at once.
  await db
    .deleteFrom('auth_sign_in_origins')
    .where('user_id', '=', userId)
    .where((eb) =>
      eb.or([
        eb('last_seen_at', '<', since),
        eb(
          'origin_hash',
          'not in',
          eb
            .selectFrom('auth_sign_in_origins')
            .select('origin_hash')
            .where('user_id', '=', userId)
            .orderBy('last_seen_at', 'desc')
            .orderBy('origin_hash')
            .limit(MAX_ORIGINS_PER_USER),
        ),
      ]),
    )
    .execute();
}
