import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EnterpriseSsoDomain } from '../src/features/admin/api';
import { SsoDomainRows } from '../src/features/admin/enterprise-sso-domains';
import { renderWithTheme } from './render';

const claimed = (patch: Partial<EnterpriseSsoDomain>): EnterpriseSsoDomain => ({
  id: 'd1',
  domain: 'bank.example',
  verified: false,
  verified_at: null,
  verification: { record_name: '_risk-assurance-challenge.bank.example', record_value: 'risk-assurance-domain-verification=abc' },
  created_at: '2026-11-27T09:00:00.000Z',
  ...patch,
});

function draw(domains: EnterpriseSsoDomain[], onVerify: (domain: EnterpriseSsoDomain) => void = () => undefined) {
  renderWithTheme(<SsoDomainRows enterpriseName="Harbourview" domains={domains} onVerify={onVerify} verifying={false} />);
}

describe("a super admin's view of an enterprise's SSO domains", () => {
  it('offers "Verify" for an unverified domain only, each named by its domain', () => {
    draw([claimed({}), claimed({ id: 'd2', domain: 'insurance.example', verified: true, verified_at: '2026-11-28T09:00:00.000Z', verification: null })]);
    const table = screen.getByRole('table', { name: 'E-mail domains of Harbourview' });
    expect(within(table).getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual(['Verify bank.example']);
    expect(within(table).getByText('Awaiting its record')).toBeTruthy();
    expect(within(table).getByText('Verified')).toBeTruthy();
  });

  it('asks before verifying, naming the domain and the enterprise', async () => {
    const verified: string[] = [];
    draw([claimed({})], (domain) => verified.push(domain.domain));
    fireEvent.click(screen.getByRole('button', { name: 'Verify bank.example' }));
    expect(verified).toEqual([]);
    const dialog = await screen.findByRole('dialog', { name: 'Verify bank.example for Harbourview?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify the domain' }));
    await waitFor(() => expect(verified).toEqual(['bank.example']));
  });

  it('says what to do when the enterprise claimed no domain', () => {
    draw([]);
    expect(screen.getByText('No domain claimed')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
