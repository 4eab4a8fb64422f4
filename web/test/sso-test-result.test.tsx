import { describe, expect, it, vi } from 'vitest';
import { SSO_TEST_PATH, takeSsoTest } from '../src/features/integrations/sso-test-result';

const SESSION = '#access_token=at.1&expires_at=1790000000&expires_in=3600&refresh_token=rt1&token_type=bearer&type=sso';
const at = (pathname: string, hash: string) => ({ hash, pathname, search: '' }) as Location;

describe("a tested single sign-on's answer", () => {
  it('is taken only on the test page: any other page leaves the address (and a sign-in there) alone', () => {
    const replaceState = vi.fn();
    expect(takeSsoTest(at('/', SESSION), { state: null, replaceState } as unknown as History)).toBeNull();
    expect(replaceState).not.toHaveBeenCalled();
  });

  it('on the test page, the session is taken out of the address and handed to the page, not kept', () => {
    const replaceState = vi.fn();
    const answer = takeSsoTest(at(SSO_TEST_PATH, SESSION), { state: null, replaceState } as unknown as History);
    expect(answer).toMatchObject({ kind: 'session', purpose: 'sso', accessToken: 'at.1' });
    expect(replaceState).toHaveBeenCalledWith(null, '', SSO_TEST_PATH);
    expect(JSON.stringify(localStorage)).not.toContain('at.1');
    expect(JSON.stringify(sessionStorage)).not.toContain('at.1');
  });

  it("the provider's refusal is shown as such; a bare visit says there is nothing to show", () => {
    const history = { state: null, replaceState: vi.fn() } as unknown as History;
    expect(takeSsoTest(at(SSO_TEST_PATH, '#error=access_denied&error_code=sso_user_not_member&error_description=Not+a+member'), history)).toEqual({
      kind: 'refused',
      code: 'sso_user_not_member',
      description: 'Not a member',
    });
    expect(takeSsoTest(at(SSO_TEST_PATH, ''), history)).toMatchObject({ kind: 'refused', code: 'no_answer' });
  });
});
