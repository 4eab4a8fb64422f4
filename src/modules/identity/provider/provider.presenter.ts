import type { AccountRow } from './provider.repository.js';

/**
 * The user as GoTrue shows it: D3's members (id, email, aud, role, created_at, last_sign_in_at) plus the
 * metadata objects that @supabase/auth-js's User type declares, so that client code reading
 * `user.user_metadata` keeps working. `role` is the token role; the service role is in /api/v1/me.
 */
export function presentUser(account: Pick<AccountRow, 'id' | 'email' | 'full_name' | 'created_at' | 'updated_at' | 'last_sign_in_at'>) {
  return {
    id: account.id,
    aud: 'authenticated' as const,
    role: 'authenticated' as const,
    email: account.email,
    created_at: account.created_at.toISOString(),
    updated_at: account.updated_at.toISOString(),
    last_sign_in_at: account.last_sign_in_at?.toISOString() ?? null,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: { full_name: account.full_name },
  };
}

export type ProviderUserView = ReturnType<typeof presentUser>;

export interface TokenResponseView {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: ProviderUserView;
}

/**
 * A browser sign-in's end as the URL fragment of its redirect (Supabase's shape, read by auth-js): the session,
 * or the error. A fragment never reaches a server log.
 */
export function sessionFragment(outcome: TokenResponseView | { error: string; errorCode: string; description: string }, extra: Record<string, string> = {}): string {
  const fields: Record<string, string> =
    'access_token' in outcome
      ? {
          access_token: outcome.access_token,
          expires_at: String(outcome.expires_at),
          expires_in: String(outcome.expires_in),
          refresh_token: outcome.refresh_token,
          token_type: outcome.token_type,
          ...extra,
        }
      : { error: outcome.error, error_code: outcome.errorCode, error_description: outcome.description };
  return new URLSearchParams(fields).toString();
}
