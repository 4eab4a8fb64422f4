import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TestRecord } from '../src/features/controls/api';
import { TestHistory } from '../src/features/controls/test-history';
import { renderWithTheme } from './render';

function record(values: Partial<TestRecord> = {}): TestRecord {
  return {
    id: '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
    sub_control_id: '3f0b8c1e-52a4-4d7e-9b1a-0c6f2e9d4a10',
    source: 'test',
    tod: 'B',
    toe: '2',
    total_effectiveness: 'Effective',
    testing_date: '2026-11-20',
    tested_by: 'Internal Audit, R. Osei',
    evidence_notes: 'Sample of 25 access reviews.',
    tod_justification: null,
    toe_justification: 'Two reviews late, within tolerance.',
    recorded_at: '2026-11-21T09:00:00.000Z',
    recorded_by: '2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e',
    recorded_by_user: { id: '2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e', full_name: 'Olivia Hart' },
    ...values,
  };
}

const cells = (row: HTMLElement) => [...row.querySelectorAll('td')].map((cell) => cell.textContent);

describe('the test history', () => {
  it('shows each test under headers: when and by whom, ToD and ToE with their why, effectiveness, evidence, who entered it', () => {
    renderWithTheme(<TestHistory tests={[record()]} />);
    const table = screen.getByTestId('test-history');
    expect([...table.querySelectorAll('th')].map((cell) => cell.textContent)).toEqual(['Tested', 'ToD', 'ToE', 'Effectiveness', 'Evidence notes', 'Entered']);
    const [tested, tod, toe, effectiveness, evidence, entered] = cells(screen.getByTestId('test-record'));
    expect(tested).toBe('2026-11-20Internal Audit, R. Osei');
    expect(tod).toBe('B');
    expect(toe).toBe('2Two reviews late, within tolerance.');
    expect(effectiveness).toBe('Effective');
    expect(evidence).toBe('Sample of 25 access reviews.');
    expect(entered).toMatch(/^Complete testOlivia Hart, /);
  });

  it('names how a result came in and keeps what is missing visible as missing', () => {
    renderWithTheme(
      <TestHistory tests={[record({ id: 'a', source: 'update', tod: null, total_effectiveness: null, tested_by: null, evidence_notes: null, recorded_by_user: null }), record({ id: 'b', source: 'import' })]} />,
    );
    const [changed, imported] = screen.getAllByTestId('test-record');
    const [tested, tod, , effectiveness, evidence, entered] = cells(changed!);
    expect(tested).toBe('2026-11-20tester not named');
    expect(tod).toBe('–');
    expect(effectiveness).toBe('Not assessed');
    expect(evidence).toBe('–');
    expect(entered).toMatch(/^Result changedthe service, /);
    expect(cells(imported!)[5]).toMatch(/^Library import/);
  });

  it('offers each test’s files when asked to, naming the test', () => {
    const onEvidence = vi.fn();
    renderWithTheme(<TestHistory tests={[record()]} onEvidence={onEvidence} />);
    fireEvent.click(within(screen.getByTestId('test-record')).getByRole('button', { name: 'Files of the test of 2026-11-20' }));
    expect(onEvidence).toHaveBeenCalledWith(record());
  });

  it('says so when nothing was tested yet, with no empty table', () => {
    renderWithTheme(<TestHistory tests={[]} />);
    expect(screen.getByTestId('test-history-empty').textContent).toBe('No test recorded yet.');
    expect(screen.queryByRole('table')).toBeNull();
  });
});
