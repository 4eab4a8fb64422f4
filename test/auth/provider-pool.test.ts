import { createHook } from 'node:async_hooks';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { poolOf } from '../../src/platform/db/engine.js';
import { createTestContext } from '../support/app.js';
import { auditEntries } from '../support/audit.js';
import { createUser } from '../support/factories.js';
import { providerCalls } from '../support/provider.js';

/**
 * Sign-ins and pooled connections: scrypt and the access token's signature run on libuv's threadpool, and
 * a request waiting for them must hold no pooled connection (a burst of sign-ins would otherwise take every
 * connection and other requests would answer 503).
 */
describe('identity provider: no pooled connection held during password hashing or token signing', async () => {
  const ctx = await createTestContext();
  const { anon, passwordGrant, refreshGrant, signIn } = providerCalls(ctx);

  /**
   * Runs `work` (requests made one at a time) while recording, for every scrypt or signature job started and
   * completed on the threadpool, how many of the app's pooled connections were checked out at that moment.
   */
  async function cryptoJobsDuring(work: () => Promise<void>): Promise<{ type: string; at: 'start' | 'end'; checkedOut: number }[]> {
    const pool = poolOf(ctx.database.db);
    if (pool === undefined) throw new Error('the app database has no pool');
    let checkedOut = 0;
    const acquire = () => void checkedOut++;
    const release = () => void checkedOut--;
    pool.on('acquire', acquire);
    pool.on('release', release);
    const jobs = new Map<number, string>();
    const seen: { type: string; at: 'start' | 'end'; checkedOut: number }[] = [];
    const hook = createHook({
      init(id, type) {
        if (type !== 'SCRYPTREQUEST' && type !== 'SIGNREQUEST') return;
        jobs.set(id, type);
        seen.push({ type, at: 'start', checkedOut });
      },
      before(id) {
        const type = jobs.get(id);
        if (type !== undefined) seen.push({ type, at: 'end', checkedOut });
      },
    });
    hook.enable();
    try {
      await work();
    } finally {
      hook.disable();
      pool.off('acquire', acquire);
      pool.off('release', release);
    }
    return seen;
  }

  it('password grant, refresh grant and PUT /user password change hold no connection while scrypt or signing runs', async () => {
    const user = await createUser(ctx, { role: 'assessor' });
    const seen = await cryptoJobsDuring(async () => {
      const signedIn = await passwordGrant({ email: user.email, password: user.password });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      const refreshed = await refreshGrant(signedIn.json().refresh_token);
      expect(refreshed.statusCode, refreshed.body).toBe(200);
      const changed = await ctx.app.inject({
        method: 'PUT',
        url: '/auth/v1/user',
        headers: { ...anon, authorization: `Bearer ${refreshed.json().access_token}` },
        payload: { password: 'a new password of enough length' },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      const refused = await passwordGrant({ email: user.email, password: user.password });
      expect(refused.statusCode).toBe(400);
    });
    // Not vacuous: the grants did hash and sign (sign-in: scrypt + signature; refresh: signature; change: scrypt).
    expect(seen.filter((job) => job.type === 'SCRYPTREQUEST' && job.at === 'start').length).toBeGreaterThanOrEqual(3);
    expect(seen.filter((job) => job.type === 'SIGNREQUEST' && job.at === 'start').length).toBeGreaterThanOrEqual(2);
    expect(seen.filter((job) => job.checkedOut !== 0)).toEqual([]);
  });

  it('concurrent sign-ins all succeed, each with its session and login entry', async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => createUser(ctx, { role: 'reviewer' })));
    const responses = await Promise.all(users.map((user) => passwordGrant({ email: user.email, password: user.password })));
    expect(responses.map((response) => response.statusCode)).toEqual(users.map(() => 200));
    for (const user of users) {
      const sessions = await ctx.db.selectFrom('auth_sessions').select('id').where('user_id', '=', user.id).execute();
      expect(sessions).toHaveLength(1);
      const logins = await auditEntries(ctx, { userId: user.id, action: 'login' });
      expect(logins.map((entry) => entry.action_details['session_id'])).toEqual([sessions[0]!.id]);
    }
  });

  it('a user deactivated after the password check but before the session is written gets no session', async () => {
    const user = await createUser(ctx, { role: 'assessor' });
    // Hold the user's row, as a deactivation in progress does, so that the sign-in checks the password and
    // then waits at its write transaction; deactivate and commit; the sign-in must then refuse.
    let answer: Promise<{ statusCode: number; body: string }> | undefined;
    await ctx.db.transaction().execute(async (trx) => {
      await trx.selectFrom('users').select('id').where('id', '=', user.id).forUpdate().execute();
      answer = passwordGrant({ email: user.email, password: user.password });
      // Wait (no timer) until another backend is blocked on a lock in this database: the sign-in's write.
      for (;;) {
        const waiting = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`.execute(ctx.db);
        if (waiting.rows[0]!.n > 0) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      await trx.updateTable('users').set({ active: false, deactivated_at: new Date() }).where('id', '=', user.id).execute();
    });
    const response = await answer!;
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ error: 'invalid_grant', error_description: 'Invalid login credentials' });
    const sessions = await ctx.db.selectFrom('auth_sessions').select('id').where('user_id', '=', user.id).execute();
    expect(sessions).toEqual([]);
    const logins = await auditEntries(ctx, { userId: user.id, action: 'login' });
    expect(logins.map((entry) => [entry.status, entry.action_details['reason']])).toEqual([['failed', 'user_inactive']]);
  });
});
