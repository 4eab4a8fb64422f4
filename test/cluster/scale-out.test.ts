import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, type ServiceProcess } from '../support/service-process.js';
import { call, createEnterprise, createMember, metricValue, signIn, startInstance, SUPER_ADMIN } from './cluster-client.js';
import { startCluster, type Cluster } from './cluster-support.js';

/**
 * Issue 40's proof (docs/scaling.md): two instances of the built service behind one address each, on a
 * PostgreSQL primary reached through PgBouncer in transaction mode, a streaming replica for the reads that
 * may lag, and Redis, all started here on loopback. The instances have DATA_DIRs of their own and generate
 * their token keys themselves: what they agree on, they agree on through the database and Redis.
 */

const ROUTED = 'risk_db_routed_reads_total';

describe('scale-out: two instances, PgBouncer, a streaming replica, Redis', () => {
  let cluster: Cluster | undefined;
  const instances: ServiceProcess[] = [];
  let a: ServiceProcess;
  let b: ServiceProcess;
  let superToken: string;
  const enterprises: string[] = [];
  const members: Record<string, { userId: string; email: string; password: string }> = {};

  beforeAll(async () => {
    ensureBuilt();
    cluster = await startCluster();
    const redis = new (await import('ioredis')).Redis(cluster.redisUrl);
    await redis.flushdb();
    redis.disconnect();
    // Started together on an empty database: both migrate (through the pooler) and generate keys; one wins each.
    const started = await Promise.allSettled([
      startInstance(cluster, 'a', { RATE_LIMIT_PER_MINUTE: '20' }),
      startInstance(cluster, 'b', { RATE_LIMIT_PER_MINUTE: '20' }),
    ]);
    for (const result of started) if (result.status === 'fulfilled') instances.push(result.value);
    for (const result of started) if (result.status === 'rejected') throw result.reason;
    [a, b] = instances as [ServiceProcess, ServiceProcess];

    // Setting up (the per-user limit of 20 a minute is the production one: each user below stays under it).
    superToken = await signIn(a, SUPER_ADMIN);
    enterprises.push(await createEnterprise(a, superToken), await createEnterprise(b, superToken));
    const [first, second] = enterprises as [string, string];
    members['writerOne'] = await createMember(a, superToken, first, 'admin');
    members['writerTwo'] = await createMember(b, superToken, second, 'admin');
    members['leaving'] = await createMember(a, superToken, first, 'reviewer');
    members['limited'] = await createMember(b, superToken, first, 'reviewer');
    members['author'] = await createMember(a, superToken, first, 'admin');
    members['reader'] = await createMember(b, superToken, first, 'reviewer');
    members['prober'] = await createMember(a, superToken, first, 'admin');
  }, 180_000);

  afterAll(async () => {
    await Promise.all(
      instances.map(async (instance) => {
        const stopped = instance.stop();
        const late = await Promise.race([stopped.then(() => false), sleep(15_000).then(() => true)]);
        if (late) await instance.kill();
      }),
    );
    if (cluster !== undefined) {
      const redis = new (await import('ioredis')).Redis(cluster.redisUrl);
      await redis.flushdb().catch(() => undefined);
      redis.disconnect();
      cluster.destroy();
    }
  }, 60_000);

  it('a token from one instance works on the other (one signing key set, in the database)', async () => {
    expect((await call(b, 'GET', '/api/v1/me', superToken)).status).toBe(200);
    const token = await signIn(b, members['author']!);
    const me = await call(a, 'GET', '/api/v1/me', token);
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe(members['author']!.email);
  });

  it('a logout on one instance is honoured by the other within 5 s', async () => {
    const token = await signIn(a, members['leaving']!);
    // The other instance has the session cached as live.
    expect((await call(b, 'GET', '/api/v1/me', token)).status).toBe(200);
    const logout = await call(a, 'POST', '/auth/v1/logout', token);
    expect(logout.status).toBe(204);
    const loggedOutAt = Date.now();
    expect((await call(a, 'GET', '/api/v1/me', token)).status).toBe(401);
    let refused: { status: number; sentAt: number } | null = null;
    // Polled slowly enough to stay within the user's 20 requests a minute.
    while (refused === null && Date.now() - loggedOutAt < 10_000) {
      const answer = await call(b, 'GET', '/api/v1/me', token);
      if (answer.status !== 200) refused = answer;
      else await sleep(450);
    }
    expect(refused?.status).toBe(401);
    expect(refused!.sentAt - loggedOutAt).toBeLessThanOrEqual(5_000);
  });

  it('the per-user limit is exact across both instances: 20 admitted in total, then 429', async () => {
    const token = await signIn(a, members['limited']!);
    // The minute windows are the clock's: start well inside one, so that all 30 requests fall in it.
    const second = new Date().getUTCSeconds();
    if (second > 45) await sleep((61 - second) * 1000);
    const answers = [];
    for (let i = 0; i < 30; i += 1) answers.push(await call(i % 2 === 0 ? a : b, 'GET', '/api/v1/me', token));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
    // Alternating instances: each admitted 10 and refused 5; the count is one, in Redis.
    expect(statuses.slice(20)).toEqual(Array(10).fill(429));
  });

  it("8 concurrent writers over both instances keep every enterprise's audit chain valid", async () => {
    const writers = [members['writerOne']!, members['writerTwo']!];
    const tokens = await Promise.all(writers.map((writer, i) => signIn(i === 0 ? a : b, writer)));
    const created: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        const token = tokens[w % 2]!;
        for (let i = 0; i < 4; i += 1) {
          const instance = (w + i) % 2 === 0 ? a : b;
          const answer = await call(instance, 'POST', '/api/v1/admin/legal-entities', token, { name: `Entity ${w}-${i} ${randomUUID().slice(0, 8)}` });
          created.push(answer.status);
        }
      }),
    );
    expect(created).toEqual(Array(32).fill(201));
    for (const [i, token] of tokens.entries()) {
      const verify = await call(i === 0 ? b : a, 'GET', '/api/v1/audit/verify', token);
      expect(verify.status).toBe(200);
      expect(verify.body.data.valid).toBe(true);
      // The enterprise's creation, its admin, and the 16 legal entities at least.
      expect(verify.body.data.entries_checked).toBeGreaterThanOrEqual(17);
    }
  });

  it("an audit search right after the caller's own write sees it; another caller's reads come from the replica", async () => {
    const replica = await cluster!.client('replica');
    try {
      const author = await signIn(a, members['author']!);
      const reader = await signIn(b, members['reader']!);
      // The replica stops replaying: whatever is written now is on the primary only.
      await replica.query('select pg_wal_replay_pause()');
      const ownBefore = await metricValue(b, ROUTED, { target: 'primary', reason: 'own_write' });
      const replicaBefore = await metricValue(b, ROUTED, { target: 'replica' });

      const entity = await call(a, 'POST', '/api/v1/admin/legal-entities', author, { name: `Written ${randomUUID().slice(0, 8)}` });
      expect(entity.status).toBe(201);
      const id = entity.body.data.id as string;
      const own = await call(b, 'GET', `/api/v1/audit?entity_id=${id}`, author);
      expect(own.status).toBe(200);
      expect(own.body.data.map((entry: { entity_id: string }) => entry.entity_id)).toEqual([id]);
      expect(await metricValue(b, ROUTED, { target: 'primary', reason: 'own_write' })).toBe(ownBefore + 1);

      // The reader changed nothing: their search and the list's total come from the replica, which lags.
      const other = await call(b, 'GET', `/api/v1/audit?entity_id=${id}`, reader);
      expect(other.status).toBe(200);
      expect(other.body.data).toEqual([]);
      const list = await call(b, 'GET', '/api/v1/bras', reader);
      expect(list.status).toBe(200);
      // The export streams from a cursor in a read-only transaction on the standby.
      const exported = await call(b, 'GET', `/api/v1/audit/export?format=csv&entity_id=${id}`, reader);
      expect(exported.status).toBe(200);
      expect(String(exported.body)).not.toContain(id);
      expect(await metricValue(b, ROUTED, { target: 'replica' })).toBe(replicaBefore + 3);
    } finally {
      await replica.query('select pg_wal_replay_resume()').catch(() => undefined);
      await replica.end();
    }
  });

  it('stopping the replica leaves every endpoint working, and /health says so', async () => {
    const token = await signIn(a, members['prober']!);
    cluster!.stopReplica();
    for (const instance of [a, b]) {
      let health = await call(instance, 'GET', '/health', null);
      for (let i = 0; i < 100 && health.body?.replica?.state !== 'unreachable'; i += 1) {
        await sleep(100);
        health = await call(instance, 'GET', '/health', null);
      }
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({ status: 'ok', database: 'ok', replica: { state: 'unreachable', lag_ms: null, reads: 'primary' } });
    }
    const routedReads = ['/api/v1/audit', '/api/v1/audit/export?format=csv', '/api/v1/controls/effectiveness', '/api/v1/controls/heat-map', '/api/v1/dashboard', '/api/v1/bras', '/api/v1/mitigation-actions'];
    for (const instance of [a, b]) {
      const before = await metricValue(instance, ROUTED, { target: 'primary', reason: 'replica_unavailable' });
      for (const path of routedReads) expect([path, (await call(instance, 'GET', path, token)).status]).toEqual([path, 200]);
      expect(await metricValue(instance, ROUTED, { target: 'primary', reason: 'replica_unavailable' })).toBeGreaterThanOrEqual(before + routedReads.length);
      expect((await call(instance, 'POST', '/api/v1/admin/legal-entities', token, { name: `After ${randomUUID().slice(0, 8)}` })).status).toBe(201);
    }
  });

  it('each scheduled job runs once per period across both instances', async () => {
    const jobs = ['monitor.periodic_checks', 'actions.overdue_events', 'audit-trail.checkpoints'];
    const rounds = async (job: string) => {
      const counts = { ran: 0, skipped: 0, ticksA: 0, ticksB: 0 };
      for (const [i, instance] of [a, b].entries()) {
        const ran = await metricValue(instance, 'risk_scheduled_job_rounds_total', { job, outcome: 'ran' });
        const skipped = await metricValue(instance, 'risk_scheduled_job_rounds_total', { job, outcome: 'skipped' });
        counts.ran += ran;
        counts.skipped += skipped;
        if (i === 0) counts.ticksA = ran + skipped;
        else counts.ticksB = ran + skipped;
      }
      return counts;
    };
    // The minute jobs tick a minute after each instance started: wait until both instances have ticked each job.
    for (const job of jobs) {
      for (let i = 0; i < 900; i += 1) {
        const counts = await rounds(job);
        if (counts.ticksA >= 1 && counts.ticksB >= 1) break;
        await sleep(100);
      }
    }
    const primary = await cluster!.client('primary');
    try {
      for (const job of jobs) {
        const counts = await rounds(job);
        expect([job, counts.ticksA >= 1 && counts.ticksB >= 1]).toEqual([job, true]);
        const { rows } = await primary.query<{ periods: number; instances: number }>(
          'select count(*)::int as periods, count(distinct instance)::int as instances from scheduled_job_runs where job = $1',
          [job],
        );
        // Every round that ran claimed a period of its own: none ran twice, whichever instance ran it.
        expect([job, counts.ran]).toEqual([job, rows[0]!.periods]);
        expect(counts.ran).toBeGreaterThanOrEqual(1);
      }
      // The 10-second checks ticked on both instances in the same periods: the second one skipped.
      expect((await rounds('monitor.periodic_checks')).skipped).toBeGreaterThanOrEqual(1);
    } finally {
      await primary.end();
    }
  });
});
