import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import { anonKey, getSession, setSession, type Session } from '../../lib/session';
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
