import type { Executor } from '../../platform/db/schema.js';

/**
 * Ends sessions: their refresh tokens stop working at the provider and their access tokens at the API
 * (the principal resolver reads `revoked_at`). Callers also drop the resolver's cache entries on commit
 * (PrincipalResolver.invalidateUser / invalidateSession) so that this instance refuses at once.
 */
export async function revokeUserSessions(db: Executor, userId: string, reason: string, exceptSessionId?: string): Promise<string[]> {
  let query = db
    .updateTable('auth_sessions')
    .set({ revoked_at: new Date(), revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (exceptSessionId !== undefined) query = query.where('id', '<>', exceptSessionId);
  const rows = await query.returning('id').execute();
  return rows.map((row) => row.id);
}

export async function revokeSession(db: Executor, sessionId: string, reason: string): Promise<boolean> {
  const row = await db
    .updateTable('auth_sessions')
    .set({ revoked_at: new Date(), revoked_reason: reason })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
