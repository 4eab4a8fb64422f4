import type { Caller } from '../../platform/auth/principal.js';
import { recordChange } from '../../platform/audit/record-change.js';
import type { Executor } from '../../platform/db/schema.js';
import type { NotificationDelivery, NotificationKind } from '../../platform/db/tables/notifications.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { validationError } from '../../platform/errors/app-error.js';
import { effectiveDeliveries } from './notification-delivery.js';
import { requireNotificationDefaultsAdmin, requirePreferenceOwner } from './notifications.policy.js';
import { readDefaults, readOwnPreferences, writeDefaults, writeOwnPreferences, type KindChoice } from './preferences.repository.js';

type Rows = readonly { kind: NotificationKind; delivery: NotificationDelivery }[];
const byKind = (rows: Rows) => new Map(rows.map((row) => [row.kind, row.delivery]));

/** Each kind at most once in a change (the field of the 422 names the list). */
function requireDistinctKinds(field: string, choices: readonly KindChoice[]): void {
  const seen = new Set<string>();
  choices.forEach((choice, index) => {
    if (seen.has(choice.kind)) throw validationError([{ field: `${field}[${index}].kind`, message: `${choice.kind} is named twice` }]);
    seen.add(choice.kind);
  });
}

/**
 * Notification preferences (issue 49): a person's own choice per kind over the enterprise's defaults over
 * the built-in ones. Each change is audited with what it set, in its transaction: a person's under the
 * entity `notification_preference` (the person's id), the enterprise's under `notification_default`.
 */
export function createPreferencesService({ db }: { db: Executor }) {
  async function preferencesOf(executor: Executor, enterpriseId: string, userId: string) {
    const [own, defaults] = await Promise.all([readOwnPreferences(executor, enterpriseId, userId), readDefaults(executor, enterpriseId)]);
    return { preferences: effectiveDeliveries(byKind(own), byKind(defaults)) };
  }
  async function defaultsOf(executor: Executor, enterpriseId: string) {
    const defaults = effectiveDeliveries(new Map(), byKind(await readDefaults(executor, enterpriseId)));
    return { defaults: defaults.map(({ kind, delivery, source }) => ({ kind, delivery, source: source === 'user' ? 'enterprise' : source })) };
  }

  return {
    async get(caller: Caller) {
      requirePreferenceOwner(caller);
      return preferencesOf(db, caller.enterpriseId, caller.userId);
    },

    async update(caller: Caller, choices: readonly KindChoice[]) {
      requirePreferenceOwner(caller);
      requireDistinctKinds('preferences', choices);
      return inTransaction(db, async ({ trx }) => {
        await writeOwnPreferences(trx, caller.enterpriseId, caller.userId, choices);
        await recordChange(trx, caller, { action: 'update', entityType: 'notification_preference', entityId: caller.userId, details: { preferences: choices } });
        return preferencesOf(trx, caller.enterpriseId, caller.userId);
      });
    },

    async getDefaults(caller: Caller) {
      requireNotificationDefaultsAdmin(caller);
      return defaultsOf(db, caller.enterpriseId);
    },

    async updateDefaults(caller: Caller, choices: readonly KindChoice[]) {
      requireNotificationDefaultsAdmin(caller);
      requireDistinctKinds('defaults', choices);
      return inTransaction(db, async ({ trx }) => {
        await writeDefaults(trx, caller.enterpriseId, choices);
        await recordChange(trx, caller, { action: 'update', entityType: 'notification_default', entityId: caller.enterpriseId, details: { defaults: choices } });
        return defaultsOf(trx, caller.enterpriseId);
      });
    },
  };
}

export type PreferencesService = ReturnType<typeof createPreferencesService>;
