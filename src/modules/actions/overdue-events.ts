import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { emitEventOnce } from '../../platform/events/outbox.js';
import { overdueActionsNotAnnounced, overdueEventKey } from './overdue-events.repository.js';
import { utcToday } from './overdue.js';

const BATCH = 500;

/**
 * Announces `mitigation_action.overdue` for every action that has become overdue (D7.3) since the last
 * round: once per action and due date (a new due date that passes is a new event), whichever instance
 * runs it (the key commits with the event; a concurrent round's duplicate yields to it). Returns how many
 * were announced.
 */
export async function announceOverdueActions(db: Kysely<DB>, now: Date): Promise<number> {
  const today = utcToday(now);
  let announced = 0;
  for (;;) {
    const rows = await overdueActionsNotAnnounced(db, today, BATCH);
    await inTransaction(db, async ({ trx }) => {
      for (const row of rows) {
        const fresh = await emitEventOnce(trx, overdueEventKey(row.id, row.due_date), {
          enterpriseId: row.enterprise_id,
          type: 'mitigation_action.overdue',
          data: { mitigation_action_id: row.id, action: row.action, owner: row.owner, priority: row.priority, due_date: row.due_date, bra_id: row.bra_id },
        });
        if (fresh) announced += 1;
      }
    });
    if (rows.length < BATCH) return announced;
  }
}
