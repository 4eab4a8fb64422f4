import type { Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { emitEvent } from '../../platform/events/outbox.js';
import type { ActionChanges, LockedAction } from './actions.repository.js';

/** Announces `mitigation_action.completed` for each action the change completes (not one already completed). */
export async function announceCompletions(
  trx: Transaction<DB>,
  enterpriseId: string,
  before: readonly LockedAction[],
  changes: ActionChanges,
): Promise<void> {
  if (changes.status !== 'completed') return;
  for (const action of before) {
    if (action.status === 'completed') continue;
    await emitEvent(trx, {
      enterpriseId,
      type: 'mitigation_action.completed',
      data: { mitigation_action_id: action.id, action: action.action, owner: action.owner, priority: action.priority, due_date: action.due_date },
    });
  }
}
