/**
 * Webhooks, measured in one run on one embedded PostgreSQL server (a temporary directory, removed after):
 *
 * 1. The request path: approvals of BRAs in an enterprise without a webhook endpoint and in one with an
 *    endpoint subscribed to every event, alternated request by request (which goes first alternates too),
 *    through the whole HTTP stack (app.inject). Wall time and the process's CPU time per approval, medians,
 *    and their ratio: an endpoint adds no work to the request (the outbox INSERT happens either way; the
 *    delivery happens later, in the dispatcher).
 * 2. The dispatcher's throughput: events emitted into the outbox, then dispatcher rounds until every
 *    delivery has reached a receiver on loopback (node:http, 204, in this process): deliveries per second
 *    and CPU per delivery, for 1 endpoint (one delivery at a time: in order per endpoint) and 8 endpoints.
 *
 *   npx tsx bench/experiments/webhook-dispatch.ts [--approvals 200] [--events 2000]
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDispatcher } from '../../src/modules/webhooks/webhook-dispatcher.js';
import { createSender } from '../../src/modules/webhooks/webhook-sender.js';
import { signAccessToken } from '../../src/modules/identity/provider/access-token.js';
import { loadAuthSecrets } from '../../src/platform/auth/secrets.js';
import { openDatabase } from '../../src/platform/db/engine.js';
import { setUpSchema } from '../../src/platform/db/schema-setup.js';
import { inTransaction } from '../../src/platform/db/transaction.js';
import { emitEvents } from '../../src/platform/events/outbox.js';
import { createMemoryRateLimitStore } from '../../src/platform/http/rate-limit/memory-store.js';
import { createMonitor } from '../../src/platform/monitoring/alert-monitor.js';
// @ts-expect-error -- an untyped .mjs module of the bench (its options and median, as every bench script's)
import { median as medianOf, options } from '../support.mjs';

const option = options();
const APPROVALS = Number(option('approvals', 200));
const EVENTS = Number(option('events', 2000));

const median = (values: number[]): number => medianOf(values);
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

// The receiver: answers 204 to everything, counts what it got.
let received = 0;
const receiver = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    received += 1;
    response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

const database = await openDatabase({ kind: 'embedded-memory' }, { poolSize: 10 });
try {
  const config = loadConfig({ DATABASE_URL: 'memory://', LOG_LEVEL: 'silent', WEBHOOKS_ALLOW_LOOPBACK: 'true', RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_HOUR: '100000000' });
  // As the service starts: migrations by the owner, the service's role granted its rights.
  await setUpSchema(config, database);
  const db = database.db;
  const secrets = await loadAuthSecrets(db, config, () => undefined);
  const silent = { error: () => undefined, warn: () => undefined, info: () => undefined };
  const monitor = createMonitor(db, silent);
  const app = await buildApp({ config, database, secrets, monitor, rateLimitStore: createMemoryRateLimitStore(), logger: false });

  /** An enterprise with its default appetite, a client admin (and a token) and `count` BRAs ready to approve. */
  async function enterpriseWithBras(name: string, count: number) {
    const enterprise = await db.insertInto('enterprises').values({ name, country: 'GB' }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('risk_appetites').values({ enterprise_id: enterprise.id, risk_level: 'Medium', threshold_value: 9 }).execute();
    const user = await db.insertInto('users').values({ email: `${name}@example.test`, full_name: name }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('enterprise_members').values({ enterprise_id: enterprise.id, user_id: user.id, role: 'admin' }).execute();
    const session = await db.insertInto('auth_sessions').values({ user_id: user.id }).returning('id').executeTakeFirstOrThrow();
    const { token } = await signAccessToken({ userId: user.id, email: `${name}@example.test`, sessionId: session.id }, secrets!, {
      issuer: config.auth.issuer,
      audience: config.auth.audience,
    });
    const entity = await db.insertInto('legal_entities').values({ enterprise_id: enterprise.id, name: 'Entity' }).returning('id').executeTakeFirstOrThrow();
    const scenario = await db.insertInto('risk_scenarios').values({ enterprise_id: enterprise.id, name: 'Fraud', category: 'External fraud' }).returning('id').executeTakeFirstOrThrow();
    const bras: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const bra = await db
        .insertInto('bras')
        .values({ enterprise_id: enterprise.id, name: `BRA ${i}`, legal_entity_id: entity.id, status: 'under_review', period: 'FY', assessor: 'A' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const link = await db
        .insertInto('bra_risk_scenarios')
        .values({ enterprise_id: enterprise.id, bra_id: bra.id, risk_scenario_id: scenario.id })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const rating_type of ['inherent', 'residual'] as const) {
        await db
          .insertInto('bra_ratings')
          .values({ enterprise_id: enterprise.id, bra_id: bra.id, bra_risk_scenario_id: link.id, rating_type, impact_score: 2, likelihood_score: 2, risk_score: 4, risk_level: 'Low' })
          .execute();
      }
      bras.push(bra.id);
    }
    return { id: enterprise.id, token, bras };
  }

  // 1. The request path, with and without an endpoint, alternated.
  const without = await enterpriseWithBras('without-endpoint', APPROVALS + 10);
  const withEndpoint = await enterpriseWithBras('with-endpoint', APPROVALS + 10);
  const registered = await app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: { authorization: `Bearer ${withEndpoint.token}` },
    payload: { url: receiverUrl, event_types: ['bra.approved', 'bra.status_changed'] },
  });
  if (registered.statusCode !== 201) throw new Error(`registration answered ${registered.statusCode}: ${registered.body}`);
  const samples = { without: { wall: [] as number[], cpu: [] as number[] }, with: { wall: [] as number[], cpu: [] as number[] } };
  const approve = async (who: typeof without, index: number, into: { wall: number[]; cpu: number[] }, measured: boolean) => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const response = await app.inject({
      method: 'POST',
      url: `/api/v1/bras/${who.bras[index]}/approve`,
      headers: { authorization: `Bearer ${who.token}` },
      payload: {},
    });
    if (response.statusCode !== 200) throw new Error(`approve answered ${response.statusCode}: ${response.body}`);
    if (!measured) return;
    into.wall.push(performance.now() - started);
    into.cpu.push(cpuMs(cpu));
  };
  for (let i = 0; i < APPROVALS + 10; i += 1) {
    const measured = i >= 10; // the first ten warm up
    const pair = [
      () => approve(without, i, samples.without, measured),
      () => approve(withEndpoint, i, samples.with, measured),
    ];
    if (i % 2 === 1) pair.reverse();
    for (const run of pair) await run();
  }
  const outboxRows = Number((await db.selectFrom('event_outbox').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const line = (name: string, s: { wall: number[]; cpu: number[] }) => `${name}: wall median ${median(s.wall).toFixed(2)} ms, CPU median ${median(s.cpu).toFixed(2)} ms`;
  process.stdout.write(`approvals (${APPROVALS} each, alternated, after 10 of warm-up)\n`);
  process.stdout.write(`  ${line('without endpoint', samples.without)}\n  ${line('with endpoint   ', samples.with)}\n`);
  process.stdout.write(
    `  ratio with/without: wall ${(median(samples.with.wall) / median(samples.without.wall)).toFixed(3)}, CPU ${(median(samples.with.cpu) / median(samples.without.cpu)).toFixed(3)}; ` +
      `outbox rows written: ${outboxRows} (${(outboxRows / (2 * (APPROVALS + 10))).toFixed(0)} events, one INSERT, per approval; none delivered yet)\n`,
  );

  // 1b. The outbox INSERT alone: a transaction that only writes the approval's two events, against an empty one.
  const insertSamples = { empty: [] as number[], insert: [] as number[] };
  const events = [
    { enterpriseId: without.id, type: 'bra.status_changed' as const, data: { bra_id: without.bras[0], name: 'BRA 0', from: 'under_review', to: 'approved' } },
    { enterpriseId: without.id, type: 'bra.approved' as const, data: { bra_id: without.bras[0], name: 'BRA 0', snapshot_id: crypto.randomUUID() } },
  ];
  for (let i = 0; i < 2 * APPROVALS; i += 1) {
    const pair: [keyof typeof insertSamples, () => Promise<unknown>][] = [
      ['empty', () => inTransaction(db, async () => undefined)],
      ['insert', () => inTransaction(db, ({ trx }) => emitEvents(trx, events))],
    ];
    if (i % 2 === 1) pair.reverse();
    for (const [name, run] of pair) {
      const started = performance.now();
      await run();
      insertSamples[name].push(performance.now() - started);
    }
  }
  await db.deleteFrom('event_outbox').execute();
  process.stdout.write(
    `the outbox INSERT alone (${2 * APPROVALS} transactions each, alternated): empty transaction ${median(insertSamples.empty).toFixed(2)} ms, ` +
      `with the INSERT ${median(insertSamples.insert).toFixed(2)} ms: +${(median(insertSamples.insert) - median(insertSamples.empty)).toFixed(2)} ms\n`,
  );

  // 2. Throughput of the dispatcher.
  const sender = createSender({ allowLoopback: true });
  const dispatcher = createDispatcher({ db, sender, log: silent });
  await dispatcher.round(); // drains the approvals' events; the receiver is warm
  for (const endpoints of [1, 8]) {
    const enterprise = await db.insertInto('enterprises').values({ name: `throughput-${endpoints}`, country: 'GB' }).returning('id').executeTakeFirstOrThrow();
    for (let i = 0; i < endpoints; i += 1) {
      await db
        .insertInto('webhook_endpoints')
        .values({ enterprise_id: enterprise.id, url: receiverUrl, event_types: ['bra.created'], secret: `whsec_${Buffer.alloc(32, i).toString('base64')}` })
        .execute();
    }
    const events = Math.round(EVENTS / endpoints);
    for (let start = 0; start < events; start += 100) {
      const batch = Array.from({ length: Math.min(100, events - start) }, (_, i) => ({
        enterpriseId: enterprise.id,
        type: 'bra.created' as const,
        data: { bra_id: crypto.randomUUID(), name: `BRA ${start + i}` },
      }));
      await inTransaction(db, ({ trx }) => emitEvents(trx, batch));
    }
    const before = received;
    const cpu = process.cpuUsage();
    const started = performance.now();
    while (received - before < events * endpoints) {
      const round = await dispatcher.round(1_000);
      if (round.queued === 0 && round.attempts === 0) throw new Error('the dispatcher stopped with deliveries left');
    }
    const seconds = (performance.now() - started) / 1000;
    const deliveries = received - before;
    process.stdout.write(
      `dispatcher, ${endpoints} endpoint(s), ${events} events each: ${deliveries} deliveries in ${seconds.toFixed(2)} s = ` +
        `${(deliveries / seconds).toFixed(0)} deliveries/s; CPU ${(cpuMs(cpu) / deliveries).toFixed(3)} ms per delivery (sender, SQL client and receiver: one process)\n`,
    );
  }
  sender.close();
  await app.close();
  await monitor.close();
} finally {
  await database.close();
  receiver.close();
}
