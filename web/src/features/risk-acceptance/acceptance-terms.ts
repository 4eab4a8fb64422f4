import type { AcceptanceStatus, AcceptanceTerms, RiskAcceptance } from './api';

/**
 * The acceptance form's values and what the screens say about an acceptance. Display and defaults only: the
 * service decides whether a risk may be accepted and until when (it answers a 422 on `expires_on` otherwise).
 */

/** The last day the form suggests: a quarter ahead, a common review cycle. A suggestion, not a rule. */
export const SUGGESTED_DAYS = 90;

/** Today as the service counts days (UTC), 'YYYY-MM-DD'. */
export function utcToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** 'YYYY-MM-DD' plus whole days. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export interface TermsValues {
  rationale: string;
  expires_on: string | null;
  conditions: string;
  mitigation_action_id: string | null;
}

/** A new acceptance starts blank; a renewal starts from the terms it replaces, with a new last day. */
export function initialTerms(renewing: Pick<RiskAcceptance, 'rationale' | 'conditions' | 'mitigation_action_id'> | null, today: string): TermsValues {
  return {
    rationale: renewing?.rationale ?? '',
    expires_on: addDays(today, SUGGESTED_DAYS),
    conditions: renewing?.conditions ?? '',
    mitigation_action_id: renewing?.mitigation_action_id ?? null,
  };
}

/** The body as the service takes it: text trimmed, an empty optional field sent as null. */
export function termsBody(values: TermsValues): AcceptanceTerms {
  const conditions = values.conditions.trim();
  return {
    rationale: values.rationale.trim(),
    expires_on: values.expires_on ?? '',
    conditions: conditions === '' ? null : conditions,
    mitigation_action_id: values.mitigation_action_id,
  };
}

/**
 * What a scenario's row says about acceptance, from the service's flags: nothing within appetite (or not
 * judged), "not accepted" above it, and the last day of the acceptance in force.
 */
export function acceptanceLine(aboveAppetite: boolean | null, acceptedUntil: string | null): { accepted: boolean; text: string } | null {
  if (aboveAppetite !== true) return null;
  return acceptedUntil === null ? { accepted: false, text: 'Not accepted' } : { accepted: true, text: `Accepted until ${acceptedUntil}` };
}

/** An acceptance's state as the screens name it: an active one past its last day (not yet marked expired) has lapsed. */
export type AcceptanceState = AcceptanceStatus | 'lapsed';

export const STATE_LABELS: Record<AcceptanceState, string> = {
  active: 'Active',
  lapsed: 'Lapsed',
  renewed: 'Renewed',
  revoked: 'Revoked',
  expired: 'Expired',
  ended: 'Ended by a new rating',
};

export function acceptanceState(acceptance: Pick<RiskAcceptance, 'status' | 'in_force'>): AcceptanceState {
  return acceptance.status === 'active' && !acceptance.in_force ? 'lapsed' : acceptance.status;
}

/** The states the list filters by: those the service stores (a lapsed one is still `active` there). */
export const STATUS_FILTERS = (['active', 'renewed', 'revoked', 'expired', 'ended'] as const).map((value) => ({ value, label: STATE_LABELS[value] }));
