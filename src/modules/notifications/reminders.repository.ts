import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Executor } from '../../platform/db/schema.js';
import type { NotificationKind } from '../../platform/db/tables/notifications.js';
import { ACTION_ROW, actionAssigneeSql } from '../actions/actions.policy.js';
import { inForceSql } from '../bras/acceptance/acceptance-rules.js';
import { riskAcceptorSql } from '../bras/bras.policy.js';
import { testRecorderSql } from '../controls/controls.policy.js';
import { ACTIVE_MEMBERS, insertNotifications } from './notifications.repository.js';

/**
 * The reminder round's statements (issue 49): one per kind, across every enterprise, however many people
 * and records there are. Each selects its recipients from the active members (ACTIVE_MEMBERS) by a rule of
 * the record's own module policy, joined on the record's enterprise, and names the date it reminds of as the
 * period, so that a reminder is written once per recipient, record and date (notifications_once_per_period_key)
 * whichever instance runs the round and however often. The records are read, never written: mitigation
 * actions and their BRAs, sub-controls, risk acceptances with their scenarios.
 */

/** A title quotes at most 150 characters of a text (as action-notices.ts quoteAction). */
const quoted = (column: string): RawBuilder<string> =>
  sql<string>`(case when char_length(${sql.ref(column)}) <= 150 then ${sql.ref(column)} else left(${sql.ref(column)}, 149) || '…' end)`;

/**
 * The open actions (not completed, not archived: D7.3, as the partial index mitigation_actions_owner_due_idx
 * states it) whose due date is within `due`, to the member each is assigned to while they may read it.
 */
function remindOfActions(db: Executor, kind: NotificationKind, due: RawBuilder<SqlBool>, title: RawBuilder<string>): Promise<number> {
  return insertNotifications(
    db,
    sql`select a.enterprise_id, m.user_id, ${kind}, a.bra_id, a.id, null::uuid, null::uuid, a.due_date::text, ${title}, null::text, null::uuid
          from ${ACTIVE_MEMBERS}
          join mitigation_actions a on a.enterprise_id = m.enterprise_id and a.owner_user_id = m.user_id
          left join bras b on b.enterprise_id = a.enterprise_id and b.id = a.bra_id
         where a.owner_user_id is not null and a.status <> 'completed' and not a.archived and ${due}
           and ${actionAssigneeSql(sql.ref('a.owner_user_id'), ACTION_ROW)}`,
  );
}

/** action_due_soon: due from today to `until` (inclusive); once per due date. */
export function remindOfActionsDueSoon(db: Executor, today: string, until: string): Promise<number> {
  return remindOfActions(
    db,
    'action_due_soon',
    sql<SqlBool>`a.due_date between ${today}::date and ${until}::date`,
    sql<string>`'Action due on ' || a.due_date::text || ': ' || ${quoted('a.action')}`,
  );
}

/** action_overdue: due before today and still open (D7.3); once per due date (a new due date that passes is reminded again). */
export function remindOfOverdueActions(db: Executor, today: string): Promise<number> {
  return remindOfActions(
    db,
    'action_overdue',
    sql<SqlBool>`a.due_date < ${today}::date`,
    sql<string>`'Action overdue, due on ' || a.due_date::text || ': ' || ${quoted('a.action')}`,
  );
}

/**
 * control_test_due: live sub-controls whose next test (sub_controls.next_test_due, computed by the database)
 * is due by `until`, overdue ones included, to whoever records tests (controls.policy.ts); once per due date.
 */
export function remindOfControlTests(db: Executor, today: string, until: string): Promise<number> {
  return insertNotifications(
    db,
    sql`select sc.enterprise_id, m.user_id, ${'control_test_due'}, null::uuid, null::uuid, sc.id, null::uuid, sc.next_test_due::text,
               'Test of ' || sc.name || case when sc.next_test_due < ${today}::date then ' was due on ' else ' is due on ' end || sc.next_test_due::text,
               null::text, null::uuid
          from ${ACTIVE_MEMBERS}
          join sub_controls sc on sc.enterprise_id = m.enterprise_id
         where sc.next_test_due is not null and not sc.archived and sc.next_test_due <= ${until}::date
           and ${testRecorderSql()}`,
  );
}

/**
 * acceptance_expiring: risk acceptances in force (acceptance-rules.ts) whose last day is by `until`, to those
 * who may renew them (bras.policy.ts); once per last day (a renewal is a new acceptance).
 */
export function remindOfExpiringAcceptances(db: Executor, today: string, until: string): Promise<number> {
  return insertNotifications(
    db,
    sql`select ra.enterprise_id, m.user_id, ${'acceptance_expiring'}, ra.bra_id, null::uuid, null::uuid, ra.id, ra.expires_on::text,
               'The acceptance of ' || rs.name || ' in ' || b.name || ' ends on ' || ra.expires_on::text, null::text, null::uuid
          from ${ACTIVE_MEMBERS}
          join risk_acceptances ra on ra.enterprise_id = m.enterprise_id
          join bras b on b.enterprise_id = ra.enterprise_id and b.id = ra.bra_id
          join bra_risk_scenarios l on l.enterprise_id = ra.enterprise_id and l.id = ra.bra_risk_scenario_id
          join risk_scenarios rs on rs.enterprise_id = l.enterprise_id and rs.id = l.risk_scenario_id
         where ${inForceSql('ra', today)} and ra.expires_on <= ${until}::date
           and ${riskAcceptorSql()}`,
  );
}
