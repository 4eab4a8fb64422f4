import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '../src/features/notifications/api';
import { choiceOf, orderedRows } from '../src/features/notifications/delivery-form';
import { NotificationBell } from '../src/features/notifications/notification-bell';
import { NotificationsScreen } from '../src/features/notifications/notifications-screen';
import { MyNotificationsCard, NotificationDefaultsPanel } from '../src/features/notifications/preference-sections';
import { formatAgo } from '../src/lib/format';
import { renderWithTheme } from './render';

// The one client of the console, its calls answered here; `unwrap` and the error reading stay the real ones.
const calls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn(), PUT: vi.fn() }));
vi.mock('../src/lib/api-client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: calls }));

// Drawing Mantine's tables and selects in jsdom takes seconds on a busy machine: waits and tests are bounded
// generously (no assertion is about time).
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });

const answer = (status: number, body: unknown) => ({ ...(status < 300 ? { data: body } : { error: body }), response: new Response(null, { status }) });

const NOTICE: Notification = {
  id: 'n1',
  kind: 'bra_returned',
  bra_id: 'b1',
  bra_name: 'Retail FY2026',
  mitigation_action_id: null,
  sub_control_id: null,
  risk_acceptance_id: null,
  subject: { type: 'bra', id: 'b1', name: 'Retail FY2026' },
  link: '/bras/b1',
  title: 'Retail FY2026 was returned to you',
  body: 'Rate the card-not-present scenario again with Q3 losses.',
  actor_id: 'u1',
  actor_user: { id: 'u1', full_name: 'Olivia Hart' },
  created_at: new Date(Date.now() - 5 * 60_000).toISOString(),
  read_at: null,
};
const READ: Notification = { ...NOTICE, id: 'n2', kind: 'bra_submitted', title: 'Card BRA awaits your review', body: null, subject: { type: 'bra', id: 'b2', name: 'Card BRA' }, link: '/bras/b2', bra_id: 'b2', read_at: NOTICE.created_at };

const page = (data: Notification[], unread: number) =>
  answer(200, { data, unread_count: unread, message: 'ok', pagination: { page: 1, page_size: 20, total: data.length, total_pages: 1, has_next: false, has_prev: false } });

/** Where the console is: the path and query after a link is followed. */
function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

function draw(element: ReactElement, at = '/') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderWithTheme(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[at]}>
        {element}
        <Routes>
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** Picks an option of a select named `name`, in the list the select opens. */
async function choose(name: string, option: string) {
  const select = await screen.findByRole('combobox', { name });
  fireEvent.click(select);
  await waitFor(() => expect(select.getAttribute('aria-controls')).toBeTruthy());
  fireEvent.click(within(document.getElementById(select.getAttribute('aria-controls')!)!).getByRole('option', { name: option, hidden: true }));
}

beforeEach(() => {
  calls.GET.mockReset().mockResolvedValue(page([NOTICE, READ], 3));
  calls.POST.mockReset().mockResolvedValue(answer(200, { data: { marked: 1, unread_count: 2 } }));
  calls.PUT.mockReset();
});

describe('how long ago', () => {
  const now = new Date('2026-12-01T12:00:00.000Z');
  it('says it as a person would', () => {
    expect(formatAgo('2026-12-01T11:59:30.000Z', now)).toBe('just now');
    expect(formatAgo('2026-12-01T11:55:00.000Z', now)).toBe('5 minutes ago');
    expect(formatAgo('2026-12-01T09:00:00.000Z', now)).toBe('3 hours ago');
    expect(formatAgo('2026-11-30T12:00:00.000Z', now)).toBe('yesterday');
    expect(formatAgo('2026-11-17T12:00:00.000Z', now)).toBe('2 weeks ago');
  });
});

describe('the bell', () => {
  it('names the unread count and asks for the latest notifications', async () => {
    draw(<NotificationBell />);
    await screen.findByRole('button', { name: 'Notifications, 3 unread' });
    expect(calls.GET).toHaveBeenCalledWith('/api/v1/notifications', { params: { query: { page: 1, page_size: 8 } } });
  });

  it('lists the latest with the return reason, who and when, the unread ones marked', async () => {
    draw(<NotificationBell />);
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 3 unread' }));
    const centre = await screen.findByTestId('notification-centre');
    const items = within(centre).getAllByTestId('notification');
    expect(items.map((item) => item.getAttribute('data-unread'))).toEqual(['true', null]);
    expect(items[0]!.textContent).toContain('Unread: Retail FY2026 was returned to you');
    expect(within(items[0]!).getByTestId('notification-body').textContent).toBe('Rate the card-not-present scenario again with Q3 losses.');
    expect(items[0]!.textContent).toContain('Olivia Hart · 5 minutes ago');
    expect(items[1]!.textContent).not.toContain('Unread');
    expect(items.map((item) => item.getAttribute('href'))).toEqual(['/bras/b1', '/bras/b2']);
  });

  it('opening an unread one marks it read and goes to its subject', async () => {
    draw(<NotificationBell />);
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 3 unread' }));
    fireEvent.click((await screen.findAllByTestId('notification'))[0]!);
    await waitFor(() => expect(calls.POST).toHaveBeenCalledWith('/api/v1/notifications/read', { body: { ids: ['n1'] } }));
    expect(screen.getByTestId('where').textContent).toBe('/bras/b1');
  });

  it('opening a read one only goes to it', async () => {
    draw(<NotificationBell />);
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 3 unread' }));
    fireEvent.click((await screen.findAllByTestId('notification'))[1]!);
    expect(screen.getByTestId('where').textContent).toBe('/bras/b2');
    expect(calls.POST).not.toHaveBeenCalled();
  });

  it('marks all read, then asks for the count again', async () => {
    draw(<NotificationBell />);
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 3 unread' }));
    calls.GET.mockResolvedValue(page([{ ...NOTICE, read_at: NOTICE.created_at }, READ], 0));
    fireEvent.click(await screen.findByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(calls.POST).toHaveBeenCalledWith('/api/v1/notifications/read', { body: { all: true } }));
    await screen.findByRole('button', { name: 'Notifications, 0 unread' });
  });
});

describe('the notifications page', () => {
  it('filters to the unread ones, kept in the address', async () => {
    draw(<NotificationsScreen />, '/notifications');
    await screen.findByText('3 unread');
    fireEvent.click(screen.getByRole('switch', { name: 'Unread only' }));
    await waitFor(() => expect(calls.GET).toHaveBeenLastCalledWith('/api/v1/notifications', { params: { query: { page: 1, page_size: 20, unread_only: true } } }));
    expect(screen.getByTestId('where').textContent).toBe('/notifications?unread=true');
  });

  it('shows the whole reason and opens a notification as the bell does', async () => {
    draw(<NotificationsScreen />, '/notifications');
    expect((await screen.findAllByTestId('notification-body'))[0]!.textContent).toBe(NOTICE.body);
    fireEvent.click(screen.getAllByTestId('notification')[0]!);
    await waitFor(() => expect(calls.POST).toHaveBeenCalledWith('/api/v1/notifications/read', { body: { ids: ['n1'] } }));
    expect(screen.getByTestId('where').textContent).toBe('/bras/b1');
  });
});

const PREFERENCES = [
  { kind: 'bra_commented', delivery: 'digest', source: 'user' },
  { kind: 'bra_submitted', delivery: 'immediate', source: 'enterprise' },
  { kind: 'action_overdue', delivery: 'digest', source: 'default' },
] as const;

describe('the delivery rows', () => {
  it('hold the delivery set at their own level, else the default', () => {
    expect(PREFERENCES.map((row) => choiceOf(row, 'user'))).toEqual(['digest', 'default', 'default']);
    expect(choiceOf({ kind: 'bra_submitted', delivery: 'off', source: 'enterprise' }, 'enterprise')).toBe('off');
  });

  it('stand in the order of the kinds, the review loop first', () => {
    expect(orderedRows([...PREFERENCES]).map((row) => row.kind)).toEqual(['bra_submitted', 'bra_commented', 'action_overdue']);
  });
});

describe('notification preferences', () => {
  beforeEach(() => calls.GET.mockResolvedValue(answer(200, { data: { preferences: PREFERENCES }, message: 'ok' })));

  it('show each kind with its delivery and where it comes from', async () => {
    draw(<MyNotificationsCard />);
    const submitted = (await screen.findByRole('combobox', { name: 'A BRA awaits your review' })) as HTMLInputElement;
    expect(submitted.value).toBe('Default (Immediately)');
    expect(screen.getByText("The enterprise's default")).toBeTruthy();
    expect((screen.getByRole('combobox', { name: 'A comment on a BRA you work on' }) as HTMLInputElement).value).toBe('Daily digest');
    expect(screen.getByText('Your choice')).toBeTruthy();
    expect((screen.getByRole('combobox', { name: 'Your action is overdue' }) as HTMLInputElement).value).toBe('Default (Daily digest)');
    expect(screen.getByText("The service's default")).toBeTruthy();
    expect(calls.GET).toHaveBeenCalledWith('/api/v1/me/notification-preferences');
    expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
  });

  it('save every row, a changed one with its delivery and the followed ones as default', async () => {
    calls.PUT.mockResolvedValue(answer(200, { data: { preferences: PREFERENCES.map((row) => (row.kind === 'bra_submitted' ? { ...row, delivery: 'off', source: 'user' } : row)) }, message: 'ok' }));
    draw(<MyNotificationsCard />);
    await choose('A BRA awaits your review', 'Off');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.PUT).toHaveBeenCalledTimes(1));
    expect(calls.PUT.mock.calls[0]).toEqual([
      '/api/v1/me/notification-preferences',
      { body: { preferences: [{ kind: 'bra_submitted', delivery: 'off' }, { kind: 'bra_commented', delivery: 'digest' }, { kind: 'action_overdue', delivery: 'default' }] } },
    ]);
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'A BRA awaits your review' }) as HTMLInputElement).value).toBe('Off'));
  });

  it("show the service's message when the save is refused", async () => {
    calls.PUT.mockResolvedValue(answer(422, { error: 'The request is not valid', code: 'VALIDATION_ERROR' }));
    draw(<MyNotificationsCard />);
    await choose('Your action is overdue', 'Immediately');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The request is not valid');
  });
});

describe('the enterprise defaults', () => {
  it("a client admin sets a kind's default; the others keep the service's", async () => {
    const defaults = [
      { kind: 'bra_submitted', delivery: 'immediate', source: 'default' },
      { kind: 'action_due_soon', delivery: 'off', source: 'enterprise' },
    ];
    calls.GET.mockResolvedValue(answer(200, { data: { defaults }, message: 'ok' }));
    calls.PUT.mockResolvedValue(answer(200, { data: { defaults }, message: 'ok' }));
    draw(<NotificationDefaultsPanel />);
    expect(((await screen.findByRole('combobox', { name: 'Your action falls due soon' })) as HTMLInputElement).value).toBe('Off');
    await choose('A BRA awaits your review', 'Daily digest');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.PUT).toHaveBeenCalledTimes(1));
    expect(calls.GET).toHaveBeenCalledWith('/api/v1/notification-defaults');
    expect(calls.PUT.mock.calls[0]).toEqual([
      '/api/v1/notification-defaults',
      { body: { defaults: [{ kind: 'bra_submitted', delivery: 'digest' }, { kind: 'action_due_soon', delivery: 'off' }] } },
    ]);
  });
});
