import { describe, expect, it } from 'vitest';
import { HEALTH_WEIGHTS, assessHealth, recovered, statusOf, worsened, type HealthSignals } from './health-score.js';

const CALM: HealthSignals = {
  overdue_urgent_actions: 0,
  scenarios_above_appetite: 0,
  bras_past_period: 0,
  sub_controls: 0,
  weak_sub_controls: 0,
  failed_sign_ins: 0,
};

describe('enterprise health score (docs/enterprise-health.md)', () => {
  it('is 100 and healthy with no signal', () => {
    expect(assessHealth(CALM)).toEqual({
      score: 100,
      status: 'healthy',
      penalties: { overdue_urgent_actions: 0, scenarios_above_appetite: 0, bras_past_period: 0, weak_sub_controls: 0, failed_sign_ins: 0 },
    });
  });

  it('takes 6 points per overdue urgent action, at most 30: five of them (D9.5’s threshold) leave the enterprise at risk', () => {
    expect(assessHealth({ ...CALM, overdue_urgent_actions: 1 }).score).toBe(94);
    expect(assessHealth({ ...CALM, overdue_urgent_actions: 5 })).toMatchObject({ score: 70, status: 'at_risk' });
    expect(assessHealth({ ...CALM, overdue_urgent_actions: 50 }).score).toBe(70);
  });

  it('takes 5 points per scenario above appetite (at most 25) and per BRA past its period (at most 15)', () => {
    expect(assessHealth({ ...CALM, scenarios_above_appetite: 3 }).score).toBe(85);
    expect(assessHealth({ ...CALM, scenarios_above_appetite: 9 }).score).toBe(75);
    expect(assessHealth({ ...CALM, bras_past_period: 2 }).score).toBe(90);
    expect(assessHealth({ ...CALM, bras_past_period: 7 }).score).toBe(85);
  });

  it('takes up to 20 points by the share of sub-controls untested or Not Effective, none without sub-controls', () => {
    expect(assessHealth({ ...CALM, sub_controls: 200, weak_sub_controls: 200 }).score).toBe(80);
    expect(assessHealth({ ...CALM, sub_controls: 8, weak_sub_controls: 2 })).toMatchObject({ score: 95, penalties: { weak_sub_controls: 5 } });
    expect(assessHealth({ ...CALM, sub_controls: 3, weak_sub_controls: 1 }).penalties.weak_sub_controls).toBe(6.67);
  });

  it('takes half a point per refused sign-in in 7 days, at most 10', () => {
    expect(assessHealth({ ...CALM, failed_sign_ins: 3 }).score).toBe(99); // 98.5 rounds half up
    expect(assessHealth({ ...CALM, failed_sign_ins: 500 }).score).toBe(90);
  });

  it('sums the capped penalties: every signal at its cap gives 0 and critical', () => {
    const worst = { overdue_urgent_actions: 99, scenarios_above_appetite: 99, bras_past_period: 99, sub_controls: 1, weak_sub_controls: 1, failed_sign_ins: 99 };
    expect(assessHealth(worst)).toMatchObject({ score: 0, status: 'critical' });
    expect(Object.values(HEALTH_WEIGHTS).reduce((sum, weight) => sum + weight.max, 0)).toBe(100);
    expect(assessHealth({ ...CALM, overdue_urgent_actions: 5, scenarios_above_appetite: 5 })).toMatchObject({ score: 45, status: 'critical' });
  });

  it('bands the score: 75 and above healthy, 50 to 74 at risk, below 50 critical', () => {
    expect([100, 75, 74, 50, 49, 0].map(statusOf)).toEqual(['healthy', 'healthy', 'at_risk', 'at_risk', 'critical', 'critical']);
  });

  it('says when the status worsened and when it recovered', () => {
    expect(worsened(undefined, 'at_risk')).toBe(true);
    expect(worsened(undefined, 'healthy')).toBe(false);
    expect(worsened('healthy', 'critical')).toBe(true);
    expect(worsened('at_risk', 'critical')).toBe(true);
    expect(worsened('critical', 'at_risk')).toBe(false);
    expect(recovered('at_risk', 'healthy')).toBe(true);
    expect(recovered('critical', 'at_risk')).toBe(false);
    expect(recovered(undefined, 'healthy')).toBe(false);
  });
});
