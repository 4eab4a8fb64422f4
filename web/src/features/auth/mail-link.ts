/**
 * What the link of an invitation or recovery mail leaves in the address when the provider sends the browser on
 * (GET /auth/v1/verify), or a single sign-on's callback (`type=sso`, GET /auth/v1/sso/callback): a session in the fragment (`#access_token=…&refresh_token=…&expires_in=…&type=invite`)
 * or why there is none (`#error=…&error_code=…&error_description=…`). The fragment never reaches a server;
 * the console reads it once, at start, and takes it out of the address at once (tokens in a URL end up in
 * history, screenshots and bookmarks).
 */
export type MailLink =
  | { kind: 'session'; purpose: 'invite' | 'recovery' | 'sso'; accessToken: string; refreshToken: string; expiresIn: number }
  | { kind: 'refused'; code: string; description: string };

export function readMailLink(hash: string): MailLink | null {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const error = params.get('error');
  if (error !== null) {
    return { kind: 'refused', code: params.get('error_code') ?? error, description: params.get('error_description') ?? 'The link cannot be used.' };
  }
  const accessToken = params.get('access_token');
  const refreshToken = params.get('refresh_token');
  const type = params.get('type');
  const expiresIn = Number(params.get('expires_in'));
  if (accessToken === null || refreshToken === null || (type !== 'invite' && type !== 'recovery' && type !== 'sso') || !Number.isFinite(expiresIn) || expiresIn <= 0) return null;
  return { kind: 'session', purpose: type, accessToken, refreshToken, expiresIn };
}

const PENDING_KEY = 'risk-console.mail-link';

/**
 * Takes the mail link out of the address (replaceState: no reload, no history entry) and keeps what the next
 * screen needs in this tab's sessionStorage: the purpose (set a password) or the refusal (say why). The
 * session itself goes where every session goes (lib/session.ts).
 */
export function takeMailLink(location: Location, history: History, storage: Storage, keepSession: (link: Extract<MailLink, { kind: 'session' }>) => void): void {
  const link = readMailLink(location.hash);
  if (link === null) return;
  history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  if (link.kind === 'session') {
    keepSession(link);
    // A single sign-on's session needs nothing more: no password to set.
    if (link.purpose !== 'sso') storage.setItem(PENDING_KEY, JSON.stringify({ kind: 'session', purpose: link.purpose }));
  } else {
    storage.setItem(PENDING_KEY, JSON.stringify(link));
  }
}

export type PendingMailLink = { kind: 'session'; purpose: 'invite' | 'recovery' } | { kind: 'refused'; code: string; description: string };

export function pendingMailLink(storage: Storage): PendingMailLink | null {
  try {
    const raw = storage.getItem(PENDING_KEY);
    return raw === null ? null : (JSON.parse(raw) as PendingMailLink);
  } catch {
    return null;
  }
}

export function settleMailLink(storage: Storage): void {
  storage.removeItem(PENDING_KEY);
}
