import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { accessToken, anonKey, getSession, setSession, type Session } from '../../lib/session';
import { queryClient } from '../../app/query-client';

function toSession(answer: { access_token: string; refresh_token: string; expires_in: number }): Session {
  return { access_token: answer.access_token, refresh_token: answer.refresh_token, expires_at: Date.now() + answer.expires_in * 1000 };
}

/** The refresh_token grant (D3), used by the session's background refresh. */
export async function exchangeRefreshToken(refreshToken: string): Promise<Session> {
  const answer = await unwrap(
    api.POST('/auth/v1/token', {
      params: { query: { grant_type: 'refresh_token' } },
      headers: { apikey: anonKey() },
      body: { refresh_token: refreshToken },
    }),
  );
  return toSession(answer);
}

export function useSignIn() {
  return useMutation({
    mutationFn: async (credentials: { email: string; password: string }) => {
      const answer = await unwrap(
        api.POST('/auth/v1/token', { params: { query: { grant_type: 'password' } }, headers: { apikey: anonKey() }, body: credentials }),
      );
      return toSession(answer);
    },
    onSuccess: (session) => {
      queryClient.clear();
      setSession(session);
    },
  });
}

/**
 * Single sign-on: the provider answers the enterprise's identity provider's URL (for an e-mail of a verified
 * domain, or a connection named), and the browser goes there; it comes back with the session in the fragment.
 */
export function useSsoSignIn() {
  return useMutation({
    mutationFn: async (target: ({ email: string } | { provider_id: string }) & { redirect_to?: string }) =>
      unwrap(api.POST('/auth/v1/sso', { headers: { apikey: anonKey() }, body: { ...target, skip_http_redirect: true } })),
  });
}

export function useSignOut() {
  return useMutation({
    mutationFn: async () => {
      const session = getSession();
      if (session === null) return;
      // Revokes this session at the provider; signing out locally happens whatever it answers.
      await api
        .POST('/auth/v1/logout', { headers: { apikey: anonKey(), authorization: `Bearer ${session.access_token}` } })
        .catch(() => undefined);
    },
    onSettled: () => {
      setSession(null);
      queryClient.clear();
    },
  });
}

/** The provider's calls as the signed-in user: its anon key and this session's access token. */
async function asSignedIn() {
  return { apikey: anonKey(), authorization: `Bearer ${(await accessToken()) ?? ''}` };
}

/** A new password for the signed-in user (after a mail link, or on the profile): the provider ends their other sessions. */
export function useSetPassword() {
  return useMutation({
    mutationFn: async (password: string) => unwrap(api.PUT('/auth/v1/user', { headers: await asSignedIn(), body: { password } })),
  });
}

/** A recovery mail for an address: the provider answers the same whether or not the address has an account. */
export function useRecoverPassword() {
  return useMutation({
    mutationFn: async (email: string) => unwrap(api.POST('/auth/v1/recover', { headers: { apikey: anonKey() }, body: { email } })),
  });
}

/** A new name for the signed-in user (the provider's `data.full_name`); /me is read again. */
export function useRename() {
  return useMutation({
    mutationFn: async (fullName: string) => unwrap(api.PUT('/auth/v1/user', { headers: await asSignedIn(), body: { data: { full_name: fullName } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.me }),
  });
}

/** Signs out every other session of the user (other browsers, other devices); this one stays. */
export function useSignOutOthers() {
  return useMutation({
    mutationFn: async () => {
      const answer = await api.POST('/auth/v1/logout', { params: { query: { scope: 'others' } }, headers: await asSignedIn() });
      if (!answer.response.ok) throw new Error('The other sessions could not be ended; try again.');
    },
  });
}

/** The account as the provider knows it (last sign-in included), for the profile. */
export function useProviderUser() {
  return useQuery({ queryKey: queryKeys.providerUser, queryFn: async () => unwrap(api.GET('/auth/v1/user', { headers: await asSignedIn() })) });
}

export { toSession };
