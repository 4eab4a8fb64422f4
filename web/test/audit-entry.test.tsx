import { fireEvent, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '../src/features/audit-trail/api';
import { AuditEntryDrawer } from '../src/features/audit-trail/audit-entry-drawer';
import { readableDetails } from '../src/features/audit-trail/change-details';
import { renderWithTheme } from './render';

const entry: AuditEntry = {
  id: '6a8e5c55-3c39-4f0f-8f55-0d7f5e1f3b10',
  user_id: '0d1e4a2c-6a6f-4a61-9a55-4f6b4c1f2a01',
  user_email: 'ada@example.com',
  user_name: 'Ada Assessor',
  action_type: 'update',
  entity_type: 'bra',
  entity_id: '9b2f0a11-2e55-4c1b-8f7e-1c2d3e4f5a6b',
  action_details: { operation: 'bras.update', changes: { name: { from: 'FY26 draft', to: 'FY26' }, description: { from: null, to: 'Annual' } }, reason: 'typo' },
  ip_address: '10.0.0.7',
  user_agent: 'test',
  status: 'success',
  created_at: '2026-11-28T10:00:00.000Z',
};

describe("an audit entry's detail", () => {
  it('reads the recorded changes field by field, and keeps the other members', () => {
    const details = readableDetails(entry.action_details);
    expect(details.operation).toBe('bras.update');
    expect(details.changes).toEqual([
      { field: 'name', from: 'FY26 draft', to: 'FY26' },
      { field: 'description', from: '–', to: 'Annual' },
    ]);
    expect(details.other).toEqual([{ key: 'reason', value: 'typo' }]);
  });

  it('keeps a `changes` member that is not field by field as it is', () => {
    expect(readableDetails({ operation: 'x', changes: ['a', 'b'] })).toEqual({ operation: 'x', changes: [], other: [{ key: 'changes', value: '["a","b"]' }] });
  });

  it('shows what changed on which record, links to it, and filters by person and by record', () => {
    const onFilter = vi.fn();
    renderWithTheme(
      <MemoryRouter>
        <AuditEntryDrawer entry={entry} onClose={() => undefined} onFilter={onFilter} />
      </MemoryRouter>,
    );
    const changes = screen.getByTestId('entry-changes');
    expect(changes.textContent).toContain('FY26 draft');
    expect(changes.textContent).toContain('Annual');
    expect(screen.getByRole('link', { name: 'Open this BRA' }).getAttribute('href')).toBe(`/bras/${entry.entity_id}`);
    fireEvent.click(screen.getByRole('button', { name: "Only this person's entries" }));
    expect(onFilter).toHaveBeenCalledWith({ user_id: entry.user_id });
    fireEvent.click(screen.getByRole('button', { name: "Only this record's entries" }));
    expect(onFilter).toHaveBeenCalledWith({ entity_id: entry.entity_id });
  });
});
