/**
 * AUTH_REDIRECT_URLS: where an invitation or recovery link may send the browser once it has signed the
 * user in. A redirect is allowed when it is an http(s) URL with the same origin as an entry and a path
 * that is the entry's path or below it (so `https://app.example/console` allows `/console/welcome` but
 * not `/consoleevil`). Anything else is refused rather than silently replaced: a wrong link should fail
 * visibly, and an open redirect would hand the user's tokens to someone else.
 */
export function isAllowedRedirect(candidate: string, allowList: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username !== '' || url.password !== '') return false;
  return allowList.some((entry) => {
    const allowed = new URL(entry);
    if (allowed.origin !== url.origin) return false;
    const base = allowed.pathname.replace(/\/+$/, '');
    return base === '' || url.pathname === base || url.pathname.startsWith(`${base}/`);
  });
}
