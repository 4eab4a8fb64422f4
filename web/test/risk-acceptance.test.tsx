import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ReactElement } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AcceptRiskForm } from '../src/features/risk-acceptance/accept-risk-form';
import { AcceptanceActions } from '../src/features/risk-acceptance/acceptance-actions';
import { AcceptanceBadge } from '../src/features/risk-acceptance/acceptance-badge';
import { acceptanceLine, acceptanceState, addDays, initialTerms, termsBody, utcToday } from '../src/features/risk-acceptance/acceptance-terms';
import type { RiskAcceptance } from '../src/features/risk-acceptance/api';
import { renderWithTheme } from './render';

// The one client of the console, its calls answered here; `unwrap` and the error reading stay the real ones.
const calls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn() }));
vi.mock('../src/lib/api-client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: calls }));

const answer = (status: number, body: unknown) => ({ ...(status < 300 ? { data: body } : { error: body }), response: new Response(null, { status }) });

const TARGET = { braId: 'b1', scenarioId: 'link-1', scenarioName: 'Card fraud' };
const ACCEPTANCE: RiskAcceptance = {
  id: 'a1',
  bra_id: 'b1',
  bra_name: 'Retail FY2026',
  scenario_id: 'link-1',
  risk_scenario_id: 'r1',
  scenario_name: 'Card fraud',
  rationale: 'The 3-D Secure rollout completes by Q2.',
  conditions: 'Monthly fraud-loss report.',
  mitigation_action_id: null,
  expires_on: '2099-06-30',
  accepted_residual_score: 15,
  accepted_threshold: 12,
  accepted_by: 'u1',
  accepted_by_user: { id: 'u1', full_name: 'Olivia Hart' },
  accepted_at: '2026-12-01T10:15:00.000Z',
  renews_id: null,
  status: 'active',
  in_force: true,
  ended_at: null,
  ended_by: null,
  end_reason: null,
};

function draw(element: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderWithTheme(<QueryClientProvider client={client}>{element}</QueryClientProvider>);
}

beforeEach(() => {
  calls.GET.mockReset().mockResolvedValue(answer(200, { data: [], pagination: { page: 1, page_size: 100, total: 0, total_pages: 0, has_next: false, has_prev: false } }));
  calls.POST.mockReset();
});

describe('the acceptance terms', () => {
  it('suggest a last day a quarter ahead; a renewal starts from the terms it replaces', () => {
    expect(addDays('2026-12-01', 90)).toBe('2027-03-01');
    expect(utcToday(new Date('2026-12-01T23:30:00.000Z'))).toBe('2026-12-01');
    expect(initialTerms(null, '2026-12-01')).toEqual({ rationale: '', expires_on: '2027-03-01', conditions: '', mitigation_action_id: null });
    expect(initialTerms(ACCEPTANCE, '2026-12-01')).toEqual({ rationale: ACCEPTANCE.rationale, expires_on: '2027-03-01', conditions: ACCEPTANCE.conditions, mitigation_action_id: null });
  });

  it('are sent trimmed, an empty condition as null', () => {
    expect(termsBody({ rationale: '  Within the reserve. ', expires_on: '2027-01-31', conditions: '  ', mitigation_action_id: null })).toEqual({
      rationale: 'Within the reserve.',
      expires_on: '2027-01-31',
      conditions: null,
      mitigation_action_id: null,
    });
  });

  it('a row says nothing within appetite, "not accepted" above it, and the last day of the acceptance in force', () => {
    expect(acceptanceLine(false, null)).toBeNull();
    expect(acceptanceLine(null, null)).toBeNull();
    expect(acceptanceLine(true, null)).toEqual({ accepted: false, text: 'Not accepted' });
    expect(acceptanceLine(true, '2027-01-31')).toEqual({ accepted: true, text: 'Accepted until 2027-01-31' });
  });

  it('an active acceptance past its last day reads as lapsed', () => {
    expect(acceptanceState({ status: 'active', in_force: true })).toBe('active');
    expect(acceptanceState({ status: 'active', in_force: false })).toBe('lapsed');
    expect(acceptanceState({ status: 'revoked', in_force: false })).toBe('revoked');
  });
});

describe('the acceptance badge', () => {
  it('shows nothing within appetite and "not accepted" above it', () => {
    draw(<AcceptanceBadge aboveAppetite={false} acceptedUntil={null} />);
    expect(document.querySelector('[data-acceptance]')).toBeNull();
    draw(<AcceptanceBadge aboveAppetite acceptedUntil={null} prefix />);
    expect(document.querySelector('[data-acceptance="not-accepted"]')?.textContent).toBe('Above appetite, not accepted');
  });

  it('opens who accepted the risk, why and on what conditions', async () => {
    draw(<AcceptanceBadge aboveAppetite acceptedUntil={ACCEPTANCE.expires_on} acceptance={ACCEPTANCE} prefix />);
    fireEvent.click(screen.getByRole('button', { name: 'Above appetite, accepted until 2099-06-30: who accepted it and why' }));
    const details = await screen.findByTestId('acceptance-details');
    expect(details.textContent).toMatch(/^Accepted by Olivia Hart .+, until 2099-06-30 \(residual 15 above 12\)\./);
    expect(details.textContent).toContain('Rationale: The 3-D Secure rollout completes by Q2.');
    expect(details.textContent).toContain('Conditions: Monthly fraud-loss report.');
  });
});

describe('the accept-risk form', () => {
  it('suggests a last day 90 days ahead and accepts the scenario link with a key per change', async () => {
    calls.POST.mockResolvedValue(answer(201, { data: { ...ACCEPTANCE, expires_on: '2027-01-31' } }));
    const done = vi.fn();
    draw(<AcceptRiskForm target={TARGET} renewing={null} onDone={done} />);
    const day = screen.getByRole('textbox', { name: /Last day/ }) as HTMLInputElement;
    expect(day.value).toBe(addDays(utcToday(), 90));
    fireEvent.change(screen.getByRole('textbox', { name: /Rationale/ }), { target: { value: ' Within the fraud reserve. ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Accept risk' }));
    await waitFor(() => expect(done).toHaveBeenCalledTimes(1));
    const [path, options] = calls.POST.mock.calls[0]!;
    expect(path).toBe('/api/v1/bras/{bra_id}/scenarios/{scenario_id}/acceptances');
    expect(options.params.path).toEqual({ bra_id: 'b1', scenario_id: 'link-1' });
    expect(options.params.header['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(options.body).toEqual({ rationale: 'Within the fraud reserve.', expires_on: addDays(utcToday(), 90), conditions: null, mitigation_action_id: null });
  });

  it("shows the service's message next to the field it refuses", async () => {
    calls.POST.mockResolvedValue(
      answer(422, { error: 'The request is not valid', code: 'VALIDATION_ERROR', details: { fields: [{ field: 'expires_on', message: 'must be after today (2026-12-01) and at most 365 days ahead (2027-12-01)' }] } }),
    );
    draw(<AcceptRiskForm target={TARGET} renewing={null} onDone={() => undefined} />);
    fireEvent.change(screen.getByRole('textbox', { name: /Rationale/ }), { target: { value: 'Within the reserve.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Accept risk' }));
    const day = screen.getByRole('textbox', { name: /Last day/ });
    await waitFor(() => expect(day.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getAllByText('must be after today (2026-12-01) and at most 365 days ahead (2027-12-01)').length).toBeGreaterThan(0);
    expect(screen.getByRole('alert').textContent).toContain('The risk was not accepted');
  });

  it('renews from the old terms through the renewal of the acceptance', async () => {
    calls.POST.mockResolvedValue(answer(201, { data: { ...ACCEPTANCE, id: 'a2', renews_id: 'a1' } }));
    const done = vi.fn();
    draw(<AcceptRiskForm target={TARGET} renewing={ACCEPTANCE} onDone={done} />);
    expect((screen.getByRole('textbox', { name: /Rationale/ }) as HTMLTextAreaElement).value).toBe(ACCEPTANCE.rationale);
    fireEvent.click(screen.getByRole('button', { name: 'Renew acceptance' }));
    await waitFor(() => expect(done).toHaveBeenCalledTimes(1));
    const [path, options] = calls.POST.mock.calls[0]!;
    expect(path).toBe('/api/v1/risk-acceptances/{acceptance_id}/renew');
    expect(options.params.path).toEqual({ acceptance_id: 'a1' });
    expect(options.body.conditions).toBe('Monthly fraud-loss report.');
  });
});

describe('the acceptance actions', () => {
  it('offer to accept a scenario without an acceptance, named after it', () => {
    draw(<AcceptanceActions target={TARGET} acceptanceId={null} />);
    expect(screen.getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual(['Accept risk Card fraud']);
  });

  it('revoke an accepted one only with a reason, after asking', async () => {
    calls.POST.mockResolvedValue(answer(200, { data: { ...ACCEPTANCE, status: 'revoked', in_force: false } }));
    draw(<AcceptanceActions target={TARGET} acceptanceId="a1" />);
    expect(screen.getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual(['Renew the acceptance of Card fraud', 'Revoke the acceptance of Card fraud']);
    fireEvent.click(screen.getByRole('button', { name: 'Revoke the acceptance of Card fraud' }));
    const revoke = await screen.findByRole('button', { name: 'Revoke acceptance' });
    expect(revoke).toHaveProperty('disabled', true);
    fireEvent.change(screen.getByRole('textbox', { name: /Reason/ }), { target: { value: 'The reserve was cut.' } });
    fireEvent.click(revoke);
    await waitFor(() => expect(calls.POST).toHaveBeenCalledTimes(1));
    expect(calls.POST.mock.calls[0]![0]).toBe('/api/v1/risk-acceptances/{acceptance_id}/revoke');
    expect(calls.POST.mock.calls[0]![1]).toEqual({ params: { path: { acceptance_id: 'a1' } }, body: { reason: 'The reserve was cut.' } });
  });

  it('read the acceptance a register row names only by id before renewing it', async () => {
    calls.GET.mockImplementation(async (path: string) =>
      path === '/api/v1/risk-acceptances/{acceptance_id}' ? answer(200, { data: ACCEPTANCE }) : answer(200, { data: [], pagination: { page: 1, page_size: 100, total: 0, total_pages: 0, has_next: false, has_prev: false } }),
    );
    draw(<AcceptanceActions target={TARGET} acceptanceId="a1" />);
    fireEvent.click(screen.getByRole('button', { name: 'Renew the acceptance of Card fraud' }));
    const rationale = (await screen.findByRole('textbox', { name: /Rationale/ })) as HTMLTextAreaElement;
    expect(rationale.value).toBe(ACCEPTANCE.rationale);
    expect(calls.GET).toHaveBeenCalledWith('/api/v1/risk-acceptances/{acceptance_id}', { params: { path: { acceptance_id: 'a1' } } });
  });
});
