import type { HTTPMethods } from 'fastify';
import type { TestContext } from './app.js';
import { bearer, tokenFor, type TestUser } from './factories.js';

/** `call('POST', '/admin/…', token, payload?)`: a call of the API under /api/v1 with a bearer token. */
export function apiCaller(ctx: TestContext) {
  return (method: HTTPMethods, url: string, token: string, payload?: unknown) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });
}

/** Bearer headers of one session per user for the whole file: signing in is not what those suites test. */
export function sessionHeaders(ctx: TestContext) {
  const tokens = new Map<string, Promise<string>>();
  return async (user: TestUser) => {
    if (!tokens.has(user.id)) tokens.set(user.id, tokenFor(ctx, user));
    return bearer(await tokens.get(user.id)!);
  };
}

/** `[role, user, token]` rows for `it.each` / `for ... of` over the roles a suite expects refused. */
export async function withTokens(ctx: TestContext, users: TestUser[]) {
  return Promise.all(users.map(async (user) => [user.role, user, await tokenFor(ctx, user)] as [TestUser['role'], TestUser, string]));
}
