import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { request as httpGet } from 'node:http';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { moduleServices } from '../../src/modules/index.js';
import { createMetrics } from '../../src/platform/metrics/metrics.js';
import { listenMetrics } from '../../src/platform/metrics/metrics.routes.js';
import { createTestContext } from '../support/app.js';
import { bearer, createUser, tokenFor } from '../support/factories.js';
import { parsePrometheus, sampleOf, type Exposition } from '../support/prometheus.js';
import { providerCalls } from '../support/provider.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

describe('GET /metrics with METRICS_TOKEN on the service listener', async () => {
  const metrics = createMetrics();
  const ctx = await createTestContext({ metrics, env: { METRICS_TOKEN, RATE_LIMIT_SIGN_IN_PER_MINUTE: '3' } });
  const scrape = async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: bearer(METRICS_TOKEN) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    return parsePrometheus(response.body);
  };

  it('is refused without the token, with another token, and through the API gate', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: bearer(`${METRICS_TOKEN}x`) });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('risk_http');
    // A user's token is no metrics token, and the gate's paths hold no metrics.
    const admin = await createUser(ctx, { role: 'admin' });
    const userToken = await tokenFor(ctx, admin);
    expect((await ctx.app.inject({ method: 'GET', url: '/metrics', headers: bearer(userToken) })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/metrics', headers: bearer(userToken) })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/metrics', headers: bearer(METRICS_TOKEN) })).statusCode).toBe(401);
  });

  it('parses with the Prometheus text parser and counts a request it served, by operation name and status class', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const headers = bearer(await tokenFor(ctx, admin));
    const countOf = (exposition: Exposition) =>
      sampleOf(exposition, 'risk_http_request_duration_seconds_count', { operation: 'me.get', status_class: '2xx' }) ?? 0;
    const was = countOf(await scrape());
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers })).statusCode).toBe(200);
    const after = await scrape();
    expect(after.families.get('risk_http_request_duration_seconds')!.type).toBe('HISTOGRAM');
    expect(countOf(after)).toBe(was + 1);
    expect(sampleOf(after, 'risk_http_requests_in_flight')).toBe(1); // the scrape itself
    // Node's default metrics are there too.
    expect(after.families.has('process_cpu_seconds_total')).toBe(true);
    expect(after.families.has('nodejs_eventloop_lag_seconds')).toBe(true);
  });

  it('reports the connection pool and the time of SQL statements', async () => {
    const families = await scrape();
    expect(sampleOf(families, 'risk_db_pool_connections')).toBeGreaterThan(0);
    expect(families.families.has('risk_db_pool_idle_connections')).toBe(true);
    expect(sampleOf(families, 'risk_db_pool_waiting_requests')).toBe(0);
    expect(sampleOf(families, 'risk_db_query_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThan(0);
  });

  it('counts refused sign-ins and refusals by the sign-in limiter', async () => {
    const user = await createUser(ctx, { role: 'assessor' });
    const provider = providerCalls(ctx);
    const failuresBefore = sampleOf(await scrape(), 'risk_sign_in_failures_total') ?? 0;
    const answers: number[] = [];
    for (let i = 0; i < 4; i += 1) answers.push((await provider.passwordGrant({ email: user.email, password: 'wrong password' })).statusCode);
    expect(answers).toEqual([400, 400, 400, 429]);
    const families = await scrape();
    expect(sampleOf(families, 'risk_sign_in_failures_total')).toBe(failuresBefore + 3);
    expect(sampleOf(families, 'risk_rate_limit_refusals_total', { limiter: 'sign_in' })).toBe(1);
  });

  it('reports open alerts by type and severity, and the audit entries written', async () => {
    const families = await scrape();
    expect(families.samples.filter((sample) => sample.name === 'risk_alerts_open')).toHaveLength(20);
    const openBefore = sampleOf(families, 'risk_alerts_open', { type: 'authentication', severity: 'warning' })!;
    const writtenBefore = sampleOf(families, 'risk_audit_entries_written')!;
    // Ten refused tokens from one address raise an authentication alert (D9.5); each refused sign-in above wrote an entry.
    for (let i = 0; i < 10; i += 1) ctx.monitor.authFailure({ account: null, enterpriseId: null, ip: '203.0.113.9' });
    await ctx.monitor.flush();
    const superAdmin = await createUser(ctx, { role: 'super_admin' });
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/enterprises',
      headers: bearer(await tokenFor(ctx, superAdmin)),
      payload: { name: `Metrics ${randomUUID()}`, country: 'GB' },
    });
    expect(created.statusCode).toBe(201);
    const after = await scrape();
    expect(sampleOf(after, 'risk_alerts_open', { type: 'authentication', severity: 'warning' })).toBe(openBefore + 1);
    expect(sampleOf(after, 'risk_audit_entries_written')).toBe(writtenBefore + 1);
  });

  it('exposes every risk_* metric that docs/operations.md and the Grafana dashboard name', async () => {
    // Checkpoint age appears once a checkpoint exists: sign one.
    const superAdmin = await createUser(ctx, { role: 'super_admin' });
    await ctx.app.inject({ method: 'POST', url: '/api/v1/admin/enterprises', headers: bearer(await tokenFor(ctx, superAdmin)), payload: { name: `Docs ${randomUUID()}`, country: 'GB' } });
    const platform = { config: ctx.config, principals: null as never, log: ctx.app.log, mail: null as never, reads: null as never };
    await moduleServices(ctx.database.db, platform)['audit-trail'].checkpoints.signChainsAhead();
    const exposition = await scrape();
    const exposed = new Set([...exposition.samples.map((sample) => sample.name), ...exposition.families.keys()]);
    const named = new Set(
      [readFileSync('docs/operations.md', 'utf8'), readFileSync('docs/grafana-dashboard.json', 'utf8')].flatMap((text) => [...text.matchAll(/\brisk_[a-z_]+/g)].map((m) => m[0])),
    );
    // Names the docs give as examples of what a future module would add.
    for (const example of ['risk_webhook_outbox_pending', 'risk_webhook_outbox_oldest_age_seconds', 'risk_service', 'risk_service_token']) named.delete(example);
    expect(named.size).toBeGreaterThan(10);
    for (const name of named) expect(exposed, name).toContain(name);
  });

  it('keeps its label sets bounded after 1,000 distinct URLs (no ids, no user input in labels)', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const headers = bearer(await tokenFor(ctx, admin));
    const ids: string[] = [];
    for (let i = 0; i < 1000; i += 1) {
      const id = randomUUID();
      ids.push(id);
      // Unknown paths, unknown ids on a real route, and query strings a client chose.
      const url = i % 3 === 0 ? `/nowhere/${id}` : i % 3 === 1 ? `/api/v1/bras/${id}` : `/api/v1/me?probe=${id}`;
      await ctx.app.inject({ method: 'GET', url, headers });
    }
    const text = (await ctx.app.inject({ method: 'GET', url: '/metrics', headers: bearer(METRICS_TOKEN) })).body;
    const series = parsePrometheus(text).samples.filter((sample) => sample.name === 'risk_http_request_duration_seconds_count');
    const operations = new Set(series.map((sample) => sample.labels['operation']));
    expect(operations).toContain('unmatched');
    expect(operations).toContain('bras.get');
    expect(series.length).toBeLessThan(20);
    for (const id of ids.slice(0, 50)) expect(text).not.toContain(id);
    expect(text).not.toContain('nowhere');
  });
});

describe('the metrics listener (METRICS_PORT)', async () => {
  const metrics = createMetrics();
  const ctx = await createTestContext({ metrics });
  const server = await listenMetrics(metrics, '127.0.0.1', 0);
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  it('serves GET /metrics and nothing else; the API listener has no /metrics without a token configured', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(await tokenFor(ctx, admin)) })).statusCode).toBe(200);
    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(200);
    const families = parsePrometheus(await response.text());
    expect(sampleOf(families, 'risk_http_request_duration_seconds_count', { operation: 'me.get', status_class: '2xx' })).toBe(1);
    // Off its listener: the service's own answers 404, and the metrics listener serves no API path.
    expect((await ctx.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    expect((await fetch(`${base}/api/v1/me`)).status).toBe(404);
    expect((await fetch(`${base}/health`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});

describe('requests in flight', async () => {
  const metrics = createMetrics();
  let entered!: () => void;
  let release!: () => void;
  const handlerEntered = new Promise<void>((resolve) => (entered = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const ctx = await createTestContext({
    metrics,
    // A probe that holds its request until the test lets it go.
    extend: (app) => {
      app.get('/probe/hold', { schema: { operationId: 'probe.hold' }, config: { public: true } }, async () => {
        entered();
        await released;
        return { held: true };
      });
    },
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });

  it('counts a request while it is served, and no longer once its client has hung up (no onResponse then)', async () => {
    const { port } = ctx.app.server.address() as AddressInfo;
    const pending = httpGet({ host: '127.0.0.1', port, path: '/probe/hold' });
    pending.on('error', () => undefined);
    pending.end();
    await handlerEntered;
    expect(metrics.inFlight.count).toBe(1);
    pending.destroy();
    release();
    await vi.waitFor(() => expect(metrics.inFlight.count).toBe(0));
  });
});

