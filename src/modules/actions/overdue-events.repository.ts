import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.js';

/** The once-only key of an action's overdue event: one per action and due date. */
export const overdueEventKey = (actionId: string, dueDate: string) => `mitigation_action.overdue:${actionId}:${dueDate}`;

/**
 * Overdue actions (D7.3: open, not archived, due before today, UTC) whose overdue event for their current
 * due date has not been emitted, across enterprises, oldest due first. It reads open actions only (the partial
 * mitigation_actions_open_idx holds them with their due date); an index of its own on the due date would
 * take the enterprise-scoped overdue_only count away from that index, for a scan that runs once a minute.
 * The key is the one `overdueEventKey` builds, here in SQL.
 */
export async function overdueActionsNotAnnounced(db: Kysely<DB>, today: string, limit: number) {
  const { rows } = await sql<{ id: string; enterprise_id: string; action: string; owner: string; priority: string; due_date: string; bra_id: string | null }>`
    select a.id, a.enterprise_id, a.action, a.owner, a.priority, a.due_date::text as due_date, a.bra_id
    from mitigation_actions a
    where a.status <> 'completed' and not a.archived and a.due_date < ${today}::date
      and not exists (
        select 1 from event_keys k
        where k.enterprise_id = a.enterprise_id and k.key = 'mitigation_action.overdue:' || a.id::text || ':' || a.due_date::text)
    order by a.due_date, a.id
    limit ${limit}`.execute(db);
  return rows;
}
