import type { Executor } from '../../platform/db/schema.js';
import { addDays } from '../bras/acceptance/acceptance-rules.js';
import { utcToday } from '../actions/overdue.js';
import {
  remindOfActionsDueSoon,
  remindOfControlTests,
  remindOfExpiringAcceptances,
  remindOfOverdueActions,
} from './reminders.repository.js';

export interface ReminderSettings {
  /** REMINDER_DUE_SOON_DAYS: actions due and sub-control tests due within this many days. */
  dueSoonDays: number;
  /** REMINDER_ACCEPTANCE_DAYS: risk acceptances ending within this many days. */
  acceptanceDays: number;
}

/**
 * One reminder round (issue 49): four statements, one per kind, each writing only what was not written yet
 * for its period, so that a second round, a restart or a concurrent round on another instance adds nothing.
 * Returns how many of each were written.
 */
export async function runReminderRound(db: Executor, now: Date, settings: ReminderSettings) {
  const today = utcToday(now);
  const soon = addDays(today, settings.dueSoonDays);
  return {
    action_due_soon: await remindOfActionsDueSoon(db, today, soon),
    action_overdue: await remindOfOverdueActions(db, today),
    control_test_due: await remindOfControlTests(db, today, soon),
    acceptance_expiring: await remindOfExpiringAcceptances(db, today, addDays(today, settings.acceptanceDays)),
  };
}
