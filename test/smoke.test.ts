import { describe, expect, it } from 'vitest';
import { createTestContext } from './support/app.js';
import { bearer, createUser, tokenFor } from './support/factories.js';

describe('smoke', async () => {
  const ctx = await createTestContext();
  it('health answers ok', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok', database: 'ok' });
  });
  it('me answers the caller', async () => {
    const user = await createUser(ctx, { role: 'admin' });
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(await tokenFor(ctx, user)) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ user_id: user.id, role: 'admin', enterprise_id: user.enterpriseId });
  });
});
