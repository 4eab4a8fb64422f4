/**
 * The signed-in session: the provider's tokens, kept in localStorage so a reload stays signed in, and
 * refreshed in the background a minute before the access token expires (D3: refresh_token grant).
 */
export interface Session {
  access_token: string;
  refresh_token: string;
  /** Epoch milliseconds. */
  expires_at: number;
}

const STORAGE_KEY = 'risk-console.session';
const REFRESH_AHEAD_MS = 60_000;

type Listener = (session: Session | null) => void;

export function anonKey(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="auth-anon-key"]')?.content ?? '';
}

function read(): Session | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    return raw === null ? null : (JSON.parse(raw) as Session);
  } catch {
    return null;
  }
}

let current: Session | null = read();
let timer: ReturnType<typeof setTimeout> | null = null;
const listeners = new Set<Listener>();
let refresher: ((refreshToken: string) => Promise<Session>) | null = null;
let pending: Promise<Session | null> | null = null;

export function getSession(): Session | null {
  return current;
}

export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setSession(session: Session | null): void {
  current = session;
  if (session === null) localStorage.removeItem(STORAGE_KEY);
  else localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  schedule();
  for (const listener of listeners) listener(session);
}

/** The function that exchanges a refresh token (features/auth/api.ts), set once at start-up. */
export function useRefresher(refresh: (refreshToken: string) => Promise<Session>): void {
  refresher = refresh;
  schedule();
}

/** Refreshes now (once at a time); a refused refresh signs out. */
export function refreshSession(): Promise<Session | null> {
  const session = current;
  if (session === null || refresher === null) return Promise.resolve(session);
  pending ??= refresher(session.refresh_token)
    .then((next) => {
      setSession(next);
      return next;
    })
    .catch(() => {
      setSession(null);
      return null;
    })
    .finally(() => {
      pending = null;
    });
  return pending;
}

/** The access token to send, refreshed first when it is about to expire. */
export async function accessToken(): Promise<string | null> {
  if (current === null) return null;
  if (current.expires_at - Date.now() < REFRESH_AHEAD_MS / 2) return (await refreshSession())?.access_token ?? null;
  return current.access_token;
}

function schedule(): void {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  if (current === null || refresher === null) return;
  const delay = Math.max(current.expires_at - Date.now() - REFRESH_AHEAD_MS, 1_000);
  timer = setTimeout(() => void refreshSession(), Math.min(delay, 2 ** 31 - 1));
}
