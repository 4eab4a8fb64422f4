import { describe, expect, it } from 'vitest';
import { isOverdue, utcToday } from './overdue.js';

describe('is_overdue (D7.3: due date before today in UTC, and not completed)', () => {
  const today = '2026-11-23';

  it.each([
    ['created', '2026-11-22', true],
    ['in_progress', '2026-11-22', true],
    ['completed', '2026-11-22', false],
    ['created', '2026-11-23', false],
    ['in_progress', '2026-11-23', false],
    ['created', '2026-11-24', false],
    ['completed', '2026-11-24', false],
    ['created', '2025-12-31', true],
  ] as const)('status %s due %s → %s', (status, due_date, expected) => {
    expect(isOverdue({ status, due_date }, today)).toBe(expected);
  });

  it('compares across month and year boundaries as calendar dates', () => {
    expect(isOverdue({ status: 'created', due_date: '2026-12-31' }, '2027-01-01')).toBe(true);
    expect(isOverdue({ status: 'created', due_date: '2027-01-01' }, '2026-12-31')).toBe(false);
    expect(isOverdue({ status: 'created', due_date: '2026-02-28' }, '2026-03-01')).toBe(true);
  });
});

describe('utcToday', () => {
  it('is the UTC calendar date, whatever the local time zone says', () => {
    expect(utcToday(new Date('2026-11-23T23:59:59.999Z'))).toBe('2026-11-23');
    expect(utcToday(new Date('2026-11-24T00:00:00.000Z'))).toBe('2026-11-24');
    // 01:30 in UTC+02:00 is still the previous day in UTC.
    expect(utcToday(new Date('2026-11-24T01:30:00+02:00'))).toBe('2026-11-23');
  });
});
