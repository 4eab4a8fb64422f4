import { describe, expect, it } from 'vitest';
import { createTestContext } from '../support/app.js';
import { auditEntries } from '../support/audit.js';
import { bearer, createUser, tokenFor } from '../support/factories.js';
import { providerCalls } from '../support/provider.js';

/** The profile's name (issue 46): PUT /auth/v1/user with Supabase's `data.full_name`, audited, seen at once by /me. */
describe('a person changes their own name', async () => {
  const ctx = await createTestContext();
  const { anon, me } = providerCalls(ctx);
  const put = (token: string, payload: object) => ctx.app.inject({ method: 'PUT', url: '/auth/v1/user', headers: { ...anon, ...bearer(token) }, payload });

  it('renames the signed-in user, trimmed; /me and the next audit entry use the new name; the change is audited', async () => {
    const user = await createUser(ctx, { role: 'assessor', fullName: 'Dana Lee' });
    const token = await tokenFor(ctx, user);
    expect((await me(token)).json().data.full_name).toBe('Dana Lee');
    const renamed = await put(token, { data: { full_name: '  Dana Lee-Okafor ' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().user_metadata.full_name).toBe('Dana Lee-Okafor');
    expect((await me(token)).json().data.full_name).toBe('Dana Lee-Okafor');
    const entries = await auditEntries(ctx, { entityId: user.id, action: 'update' });
    expect(entries).toHaveLength(1);
    expect(entries[0]!.action_details).toMatchObject({ change: 'renamed', changes: { full_name: { from: 'Dana Lee', to: 'Dana Lee-Okafor' } } });
    // The same name again changes nothing and writes nothing.
    expect((await put(token, { data: { full_name: 'Dana Lee-Okafor' } })).statusCode).toBe(200);
    expect(await auditEntries(ctx, { entityId: user.id, action: 'update' })).toHaveLength(1);
  });

  it('refuses an empty or too long name, a name sent with a password, and an e-mail change; nothing is written', async () => {
    const user = await createUser(ctx, { role: 'reviewer', fullName: 'Sam Reviewer' });
    const token = await tokenFor(ctx, user);
    for (const payload of [{ data: { full_name: '   ' } }, { data: { full_name: 'x'.repeat(201) } }, { data: { full_name: 'New' }, password: 'long-enough-pass' }, { email: 'new@example.com' }]) {
      const answer = await put(token, payload);
      expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await me(token)).json().data.full_name).toBe('Sam Reviewer');
    expect(await auditEntries(ctx, { entityId: user.id, action: 'update' })).toHaveLength(0);
  });
});
