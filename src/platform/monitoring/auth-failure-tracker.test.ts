import { describe, expect, it } from 'vitest';
import { AuthFailureTracker } from './auth-failure-tracker.js';

const T0 = 1_700_000_000_000;
const MINUTE = 60_000;

function run(tracker: AuthFailureTracker, count: number, failure: { account: string | null; ip: string; enterpriseId?: string | null }, start = T0) {
  const results = [];
  for (let i = 0; i < count; i += 1) {
    results.push(tracker.record({ enterpriseId: null, ...failure }, start + i));
  }
  return results;
}

describe('authentication alert condition (D9.5)', () => {
  it('holds from the 10th refused attempt for one account within 5 minutes, as a warning', () => {
    const results = run(new AuthFailureTracker(), 10, { account: 'a@example.test', ip: '10.0.0.1', enterpriseId: 'e1' });
    expect(results.slice(0, 9).every((alerts) => alerts.length === 0)).toBe(true);
    expect(results[9]).toEqual([
      expect.objectContaining({ type: 'authentication', severity: 'warning', cause: 'account:a@example.test', enterpriseId: 'e1' }),
    ]);
  });

  it('is an error from the 50th attempt', () => {
    const results = run(new AuthFailureTracker(), 50, { account: null, ip: '10.0.0.2' });
    expect(results[48]?.[0]?.severity).toBe('warning');
    expect(results[49]).toEqual([expect.objectContaining({ severity: 'error', cause: 'address:10.0.0.2', enterpriseId: null })]);
  });

  it('counts an account case-insensitively, across addresses', () => {
    const tracker = new AuthFailureTracker();
    for (let i = 0; i < 9; i += 1) tracker.record({ account: 'Mixed@Example.test', enterpriseId: null, ip: `10.0.1.${i}` }, T0 + i);
    expect(tracker.record({ account: 'mixed@example.test', enterpriseId: null, ip: '10.0.1.99' }, T0 + 10)).toEqual([
      expect.objectContaining({ cause: 'account:mixed@example.test' }),
    ]);
  });

  it('forgets attempts older than 5 minutes', () => {
    const tracker = new AuthFailureTracker();
    run(tracker, 9, { account: null, ip: '10.0.0.3' });
    expect(tracker.record({ account: null, enterpriseId: null, ip: '10.0.0.3' }, T0 + 5 * MINUTE + 10)).toEqual([]);
  });

  it('raises one alert, not two, when one address fails on one account only', () => {
    const results = run(new AuthFailureTracker(), 10, { account: 'b@example.test', ip: '10.0.0.4' });
    expect(results[9]?.map((alert) => alert.cause)).toEqual(['account:b@example.test']);
  });

  it('raises the address alert when the address tries several accounts', () => {
    const tracker = new AuthFailureTracker();
    const alerts = [];
    for (let i = 0; i < 10; i += 1) alerts.push(tracker.record({ account: `user${i % 3}@example.test`, enterpriseId: null, ip: '10.0.0.5' }, T0 + i));
    expect(alerts[9]?.map((alert) => alert.cause)).toEqual(['address:10.0.0.5']);
  });

  it('drops aged-out keys on sweep and counts afresh', () => {
    const tracker = new AuthFailureTracker();
    run(tracker, 9, { account: 'c@example.test', ip: '10.0.0.6' });
    tracker.sweep(T0 + 6 * MINUTE);
    expect(run(tracker, 9, { account: 'c@example.test', ip: '10.0.0.6' }, T0 + 6 * MINUTE).flat()).toEqual([]);
  });
});
