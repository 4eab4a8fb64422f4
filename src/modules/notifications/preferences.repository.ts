import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../platform/db/schema.js';
import type { NotificationDelivery, NotificationKind } from '../../platform/db/tables/notifications.js';
import { BUILT_IN_DELIVERY } from './notification-delivery.js';

/**
 * Notification preferences (SQL only): a person's own choice per kind (notification_preferences) and the
 * enterprise's defaults (notification_defaults), each read and written by its primary key.
 */

const BUILT_IN_CASE = (kind: RawBuilder<unknown>) =>
  sql<NotificationDelivery>`case ${kind} ${sql.join(
    Object.entries(BUILT_IN_DELIVERY).map(([k, delivery]) => sql`when ${sql.lit(k)} then ${sql.lit(delivery)}`),
    sql` `,
  )} end`;

/**
 * The effective delivery of a kind for a person, as a SQL expression over three column references (the
 * person's choice, else the enterprise's default, else the built-in one): the notification statement and
 * the digest embed it, so that one row is one lookup by primary key of each table.
 */
export function effectiveDeliverySql(enterpriseId: RawBuilder<unknown>, userId: RawBuilder<unknown>, kind: RawBuilder<unknown>): RawBuilder<NotificationDelivery> {
  return sql<NotificationDelivery>`coalesce(
    (select np.delivery from notification_preferences np where np.enterprise_id = ${enterpriseId} and np.user_id = ${userId} and np.kind = ${kind}),
    (select nd.delivery from notification_defaults nd where nd.enterprise_id = ${enterpriseId} and nd.kind = ${kind}),
    ${BUILT_IN_CASE(kind)})`;
}

export type DeliveryChoice = NotificationDelivery | 'default';
export interface KindChoice {
  kind: NotificationKind;
  delivery: DeliveryChoice;
}

const chosen = (choices: readonly KindChoice[]) =>
  choices.filter((c): c is { kind: NotificationKind; delivery: NotificationDelivery } => c.delivery !== 'default');
const cleared = (choices: readonly KindChoice[]) => choices.filter((c) => c.delivery === 'default').map((c) => c.kind);

export async function readOwnPreferences(db: Executor, enterpriseId: string, userId: string) {
  return db.selectFrom('notification_preferences').select(['kind', 'delivery']).where('enterprise_id', '=', enterpriseId).where('user_id', '=', userId).execute();
}

export async function readDefaults(db: Executor, enterpriseId: string) {
  return db.selectFrom('notification_defaults').select(['kind', 'delivery']).where('enterprise_id', '=', enterpriseId).execute();
}

/** A person's choices: set where given, removed where 'default'. At most two statements. */
export async function writeOwnPreferences(db: Executor, enterpriseId: string, userId: string, choices: readonly KindChoice[]): Promise<void> {
  const set = chosen(choices);
  if (set.length > 0) {
    await db
      .insertInto('notification_preferences')
      .values(set.map((c) => ({ enterprise_id: enterpriseId, user_id: userId, kind: c.kind, delivery: c.delivery })))
      .onConflict((oc) => oc.columns(['enterprise_id', 'user_id', 'kind']).doUpdateSet({ delivery: (eb) => eb.ref('excluded.delivery'), updated_at: sql`now()` }))
      .execute();
  }
  const removed = cleared(choices);
  if (removed.length > 0) {
    await db.deleteFrom('notification_preferences').where('enterprise_id', '=', enterpriseId).where('user_id', '=', userId).where('kind', 'in', removed).execute();
  }
}

/** The enterprise's defaults: set where given, removed where 'default'. At most two statements. */
export async function writeDefaults(db: Executor, enterpriseId: string, choices: readonly KindChoice[]): Promise<void> {
  const set = chosen(choices);
  if (set.length > 0) {
    await db
      .insertInto('notification_defaults')
      .values(set.map((c) => ({ enterprise_id: enterpriseId, kind: c.kind, delivery: c.delivery })))
      .onConflict((oc) => oc.columns(['enterprise_id', 'kind']).doUpdateSet({ delivery: (eb) => eb.ref('excluded.delivery'), updated_at: sql`now()` }))
      .execute();
  }
  const removed = cleared(choices);
  if (removed.length > 0) {
    await db.deleteFrom('notification_defaults').where('enterprise_id', '=', enterpriseId).where('kind', 'in', removed).execute();
  }
}

/** Whether the person is (or was) a member of the enterprise: the preferences' owner (notification_preferences_member_fkey). */
export async function isMemberOf(db: Executor, enterpriseId: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom('enterprise_members').select('user_id').where('enterprise_id', '=', enterpriseId).where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}
