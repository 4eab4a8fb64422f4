import type { RawBuilder, SqlBool } from 'kysely';
import type { Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { insertForMembers, type Notice } from './notifications.repository.js';

/** Who can be told anything: the active members `m` whose account is active `u` (a FROM item). */
export { ACTIVE_MEMBERS } from './notifications.repository.js';

/**
 * How another module tells people something (issue 49), in the transaction of the change it tells of: the
 * recipients are the enterprise's active members matching `who` (a predicate over the membership `m`, from
 * the caller's module policy), never the person who caused it. Returns how many were told.
 */
export function notifyMembers(trx: Transaction<DB>, enterpriseId: string, who: RawBuilder<SqlBool>, notice: Notice): Promise<number> {
  return insertForMembers(trx, enterpriseId, who, notice.actor_id, notice);
}
