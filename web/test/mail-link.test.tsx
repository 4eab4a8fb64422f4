import { describe, expect, it, vi } from 'vitest';
import { pendingMailLink, readMailLink, settleMailLink, takeMailLink } from '../src/features/auth/mail-link';

const SESSION = '#access_token=at.1&expires_at=1790000000&expires_in=3600&refresh_token=rt1&token_type=bearer&type=invite';

describe("a mail link's fragment", () => {
  it('reads the session of an invitation or recovery link, and nothing else', () => {
    expect(readMailLink(SESSION)).toEqual({ kind: 'session', purpose: 'invite', accessToken: 'at.1', refreshToken: 'rt1', expiresIn: 3600 });
    expect(readMailLink(SESSION.replace('type=invite', 'type=recovery'))).toMatchObject({ purpose: 'recovery' });
    expect(readMailLink('')).toBeNull();
    expect(readMailLink('#section-2')).toBeNull();
    expect(readMailLink(SESSION.replace('type=invite', 'type=signup'))).toBeNull();
    expect(readMailLink(SESSION.replace('expires_in=3600', 'expires_in=soon'))).toBeNull();
  });

  it("reads the provider's refusal of a used or expired link", () => {
    expect(readMailLink('#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired')).toEqual({
      kind: 'refused',
      code: 'otp_expired',
      description: 'Email link is invalid or has expired',
    });
  });

  it('takes the tokens out of the address at once, keeps the session, and leaves what the next screen needs', () => {
    const replaceState = vi.fn();
    const keep = vi.fn();
    takeMailLink({ hash: SESSION, pathname: '/', search: '' } as Location, { state: null, replaceState } as unknown as History, sessionStorage, keep);
    expect(replaceState).toHaveBeenCalledWith(null, '', '/');
    expect(keep).toHaveBeenCalledWith(expect.objectContaining({ accessToken: 'at.1', refreshToken: 'rt1' }));
    expect(pendingMailLink(sessionStorage)).toEqual({ kind: 'session', purpose: 'invite' });
    expect(JSON.stringify(sessionStorage)).not.toContain('at.1');
    settleMailLink(sessionStorage);
    expect(pendingMailLink(sessionStorage)).toBeNull();
  });

  it("keeps a single sign-on's session with nothing left for the next screen (no password to set)", () => {
    const replaceState = vi.fn();
    const keep = vi.fn();
    takeMailLink({ hash: SESSION.replace('type=invite', 'type=sso'), pathname: '/', search: '' } as Location, { state: null, replaceState } as unknown as History, sessionStorage, keep);
    expect(replaceState).toHaveBeenCalledWith(null, '', '/');
    expect(keep).toHaveBeenCalledWith(expect.objectContaining({ purpose: 'sso', accessToken: 'at.1' }));
    expect(pendingMailLink(sessionStorage)).toBeNull();
  });

  it('leaves an address without a mail link alone', () => {
    const replaceState = vi.fn();
    takeMailLink({ hash: '#top', pathname: '/bras', search: '?page=2' } as Location, { state: null, replaceState } as unknown as History, sessionStorage, vi.fn());
    expect(replaceState).not.toHaveBeenCalled();
    expect(pendingMailLink(sessionStorage)).toBeNull();
  });
});
