import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, type ServiceProcess } from '../support/service-process.js';
import { call, createEnterprise, createMember, signIn, startInstance, SUPER_ADMIN } from './cluster-client.js';
import { startCluster, type Cluster } from './cluster-support.js';

/**
 * The figures of docs/scaling.md, measured on the cluster of the scale-out suite:
 *
 *   CLUSTER_MEASURE=1 npm run test:cluster -- measure
 *
 * Throughput of one instance against two on a read endpoint (autocannon, same connections in total), and
 * the replica's lag while 8 writers write through both instances. Figures, not assertions: skipped unless
 * CLUSTER_MEASURE=1 (the numbers say what this machine did, not what the service must do).
 */
interface LoadResult {
  requests: { average: number };
  latency: { p99: number };
  non2xx: number;
}
// The package ships no types: its one call, typed here.
const autocannon = createRequire(import.meta.url)('autocannon') as (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
}) => Promise<LoadResult>;

const SECONDS = Number(process.env['CLUSTER_MEASURE_SECONDS'] ?? '10');
const CONNECTIONS = 16;

describe.skipIf(process.env['CLUSTER_MEASURE'] !== '1')('scale-out figures', () => {
  let cluster: Cluster | undefined;
  const instances: ServiceProcess[] = [];
  let a: ServiceProcess;
  let b: ServiceProcess;
  let token: string;

  beforeAll(async () => {
    ensureBuilt();
    cluster = await startCluster();
    // The limits are not what is measured.
    const limits = { RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_HOUR: '100000000', LOG_LEVEL: 'error' };
    instances.push(await startInstance(cluster, 'a', limits));
    instances.push(await startInstance(cluster, 'b', limits));
    [a, b] = instances as [ServiceProcess, ServiceProcess];
    const superToken = await signIn(a, SUPER_ADMIN);
    const enterprise = await createEnterprise(a, superToken);
    const admin = await createMember(a, superToken, enterprise, 'admin');
    token = await signIn(a, admin);
    for (let i = 0; i < 20; i += 1) await call(a, 'POST', '/api/v1/admin/legal-entities', token, { name: `Seed ${i} ${randomUUID().slice(0, 8)}` });
  }, 180_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    if (cluster !== undefined) {
      const redis = new (await import('ioredis')).Redis(cluster.redisUrl);
      await redis.flushdb().catch(() => undefined);
      redis.disconnect();
      cluster.destroy();
    }
  }, 60_000);

  const load = (instance: ServiceProcess, connections: number) =>
    autocannon({
      url: `${instance.baseUrl}/api/v1/legal-entities`,
      connections,
      duration: SECONDS,
      headers: { authorization: `Bearer ${token}` },
    });

  it('throughput: one instance, then two, on GET /api/v1/legal-entities', async () => {
    await load(a, 4); // warm-up
    const one = await load(a, CONNECTIONS);
    const [first, second] = await Promise.all([load(a, CONNECTIONS / 2), load(b, CONNECTIONS / 2)]);
    const figures = {
      connections: CONNECTIONS,
      seconds: SECONDS,
      one_instance_rps: Math.round(one.requests.average),
      one_instance_p99_ms: one.latency.p99,
      two_instances_rps: Math.round(first.requests.average + second.requests.average),
      two_instances_p99_ms: Math.max(first.latency.p99, second.latency.p99),
      non_2xx: one.non2xx + first.non2xx + second.non2xx,
      cores: cpus().length,
      load_average: loadavg().map((value) => Math.round(value * 10) / 10),
    };
    process.stdout.write(`\nthroughput ${JSON.stringify(figures)}\n`);
    expect(figures.non_2xx).toBe(0);
  }, 120_000);

  it('replica lag while 8 writers write through both instances', async () => {
    const primary = await cluster!.client('primary');
    const replica = await cluster!.client('replica');
    const lsn = (text: string) => {
      const [high, low] = text.split('/');
      return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
    };
    const samples: { at: number; lsn: bigint }[] = [];
    const lags: number[] = [];
    const bytesBehind: number[] = [];
    const reported: number[] = [];
    let writing = true;
    let writes = 0;
    const writer = async (w: number) => {
      for (let i = 0; writing; i += 1) {
        const answer = await call(w % 2 === 0 ? a : b, 'POST', '/api/v1/admin/legal-entities', token, { name: `Load ${w}-${i} ${randomUUID().slice(0, 8)}` });
        if (answer.status === 201) writes += 1;
      }
    };
    // Every 50 ms: the primary's WAL position, and how long ago the primary was where the replica is now.
    const prober = async () => {
      while (writing) {
        const at = Date.now();
        samples.push({ at, lsn: lsn((await primary.query<{ l: string }>('select pg_current_wal_lsn()::text as l')).rows[0]!.l) });
        const replayed = lsn((await replica.query<{ l: string }>('select pg_last_wal_replay_lsn()::text as l')).rows[0]!.l);
        const behind = samples.find((sample) => sample.lsn > replayed);
        bytesBehind.push(Number(samples.at(-1)!.lsn - replayed > 0n ? samples.at(-1)!.lsn - replayed : 0n));
        lags.push(behind === undefined ? 0 : Date.now() - behind.at);
        await sleep(50);
      }
    };
    const health = async () => {
      while (writing) {
        const answer = await call(b, 'GET', '/health', null);
        if (typeof answer.body?.replica?.lag_ms === 'number') reported.push(answer.body.replica.lag_ms);
        await sleep(250);
      }
    };
    const started = Date.now();
    const stop = sleep(SECONDS * 1000).then(() => {
      writing = false;
    });
    await Promise.all([stop, prober(), health(), ...Array.from({ length: 8 }, (_, w) => writer(w))]);
    const elapsed = (Date.now() - started) / 1000;
    await primary.end();
    await replica.end();
    const sorted = [...lags].sort((x, y) => x - y);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    const figures = {
      writers: 8,
      seconds: Math.round(elapsed),
      writes_per_second: Math.round(writes / elapsed),
      lag_samples: lags.length,
      lag_p50_ms: at(0.5),
      lag_p95_ms: at(0.95),
      lag_max_ms: sorted.at(-1) ?? 0,
      bytes_behind_max: Math.max(0, ...bytesBehind),
      health_lag_max_ms: Math.max(0, ...reported),
      load_average: loadavg().map((value) => Math.round(value * 10) / 10),
    };
    process.stdout.write(`\nreplica ${JSON.stringify(figures)}\n`);
    expect(writes).toBeGreaterThan(0);
  }, 120_000);
});
