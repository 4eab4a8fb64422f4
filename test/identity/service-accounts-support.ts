import type { TestContext } from '../support/app.js';
import { calls } from '../support/cast.js';

/** A service account made over HTTP by a client admin, and a token issued to it. */
export function serviceAccountCalls(ctx: TestContext, adminToken: string) {
  const { call } = calls(ctx);
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
  return {
    call,
    inDays,
    async createAccount(body: Record<string, unknown>) {
      const response = await call(adminToken, 'POST', '/service-accounts', body);
      if (response.statusCode !== 201) throw new Error(`create: ${response.statusCode} ${response.body}`);
      return response.json().data as { id: string; name: string; role: string };
    },
    async issueToken(accountId: string, body: Record<string, unknown> = {}) {
      const response = await call(adminToken, 'POST', `/service-accounts/${accountId}/tokens`, { name: 'test token', expires_at: inDays(30), ...body });
      if (response.statusCode !== 201) throw new Error(`issue: ${response.statusCode} ${response.body}`);
      return response.json().data as { id: string; token: string; hint: string; expires_at: string };
    },
  };
}
