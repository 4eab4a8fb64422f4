import { expect } from 'vitest';
import type { TestContext } from './app.js';
import { bearer } from './factories.js';

export interface IssuedTokens {
  access_token: string;
  refresh_token: string;
  expires_at: number;
  user: { id: string };
}

/** The embedded identity provider's calls as a client makes them: with the anon apikey unless told otherwise. */
export function providerCalls(ctx: TestContext) {
  const anon = { apikey: ctx.secrets.anonKey };
  const passwordGrant = (body: unknown, headers: Record<string, string> = anon) =>
    ctx.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=password', headers, payload: body as object });
  const refreshGrant = (refreshToken: unknown) =>
    ctx.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=refresh_token', headers: anon, payload: { refresh_token: refreshToken } });
  /** A sign-in the test relies on, not one it examines: anything but 200 fails the test here. */
  const signIn = async (user: { email: string; password: string }) => {
    const response = await passwordGrant({ email: user.email, password: user.password });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as IssuedTokens;
  };
  /** The API's view of an access token: 200 while its session lives, 401 once it has ended. */
  const me = (token: string) => ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(token) });
  return { anon, passwordGrant, refreshGrant, signIn, me };
}
