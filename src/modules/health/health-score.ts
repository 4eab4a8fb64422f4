/**
 * The enterprise health score (docs/enterprise-health.md): 100 minus weighted, capped penalties for five
 * signals, rounded, never below 0. Pure: no I/O; the signals are counted by health.repository.ts.
 */

export const HEALTH_STATUSES = ['healthy', 'at_risk', 'critical'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/** What is counted per enterprise, at one moment. */
export interface HealthSignals {
  /** Actions of priority high or critical, not archived, not completed, due before today (UTC) (D7.3). */
  overdue_urgent_actions: number;
  /** Included scenarios of BRAs not cancelled whose current residual score exceeds the applicable appetite (D6.8, D6.9). */
  scenarios_above_appetite: number;
  /** BRAs still draft, in progress or under review a year after their start date (or creation when none). */
  bras_past_period: number;
  /** Sub-controls not archived. */
  sub_controls: number;
  /** Of those, untested (no total effectiveness yet) or rated Not Effective. */
  weak_sub_controls: number;
  /** Refused sign-ins on the enterprise's accounts over the last 7 days (login entries with status failed). */
  failed_sign_ins: number;
}

export type HealthSignalName = Exclude<keyof HealthSignals, 'sub_controls'>;

/**
 * Points taken off per unit of a signal, and the most a signal can take. weak_sub_controls counts by share:
 * its penalty is `max` × weak / sub_controls. The caps add up to 100.
 */
export const HEALTH_WEIGHTS: Record<HealthSignalName, { perUnit: number; max: number }> = {
  overdue_urgent_actions: { perUnit: 6, max: 30 },
  scenarios_above_appetite: { perUnit: 5, max: 25 },
  bras_past_period: { perUnit: 5, max: 15 },
  weak_sub_controls: { perUnit: 20, max: 20 },
  failed_sign_ins: { perUnit: 0.5, max: 10 },
};

/** At or above: healthy; at or above AT_RISK_FROM: at_risk; below: critical. */
export const HEALTHY_FROM = 75;
export const AT_RISK_FROM = 50;

export interface HealthAssessment {
  score: number;
  status: HealthStatus;
  penalties: Record<HealthSignalName, number>;
}

const capped = (value: number, max: number) => Math.min(value, max);
/** Penalties are kept to two decimals (they are shown); the score is rounded once, from their sum. */
const cents = (value: number) => Math.round(value * 100) / 100;

export function statusOf(score: number): HealthStatus {
  if (score >= HEALTHY_FROM) return 'healthy';
  if (score >= AT_RISK_FROM) return 'at_risk';
  return 'critical';
}

export function assessHealth(signals: HealthSignals): HealthAssessment {
  const w = HEALTH_WEIGHTS;
  const share = signals.sub_controls === 0 ? 0 : signals.weak_sub_controls / signals.sub_controls;
  const penalties: Record<HealthSignalName, number> = {
    overdue_urgent_actions: cents(capped(signals.overdue_urgent_actions * w.overdue_urgent_actions.perUnit, w.overdue_urgent_actions.max)),
    scenarios_above_appetite: cents(capped(signals.scenarios_above_appetite * w.scenarios_above_appetite.perUnit, w.scenarios_above_appetite.max)),
    bras_past_period: cents(capped(signals.bras_past_period * w.bras_past_period.perUnit, w.bras_past_period.max)),
    weak_sub_controls: cents(capped(share * w.weak_sub_controls.perUnit, w.weak_sub_controls.max)),
    failed_sign_ins: cents(capped(signals.failed_sign_ins * w.failed_sign_ins.perUnit, w.failed_sign_ins.max)),
  };
  const total = Object.values(penalties).reduce((sum, penalty) => sum + penalty, 0);
  const score = Math.max(0, Math.round(100 - total));
  return { score, status: statusOf(score), penalties };
}

const RANK: Record<HealthStatus, number> = { healthy: 0, at_risk: 1, critical: 2 };

/** Worse: at_risk after healthy, critical after either. The first assessment compares with healthy. */
export function worsened(previous: HealthStatus | undefined, next: HealthStatus): boolean {
  return RANK[next] > RANK[previous ?? 'healthy'];
}

/** Back to healthy after being at risk or critical. */
export function recovered(previous: HealthStatus | undefined, next: HealthStatus): boolean {
  return previous !== undefined && previous !== 'healthy' && next === 'healthy';
}
