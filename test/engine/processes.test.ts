import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MEMBERS, DEMO_SUPER_ADMIN } from '../../src/demo/demo-data.js';
import { verifyAuditChain } from '../../src/platform/audit/chain-verifier.js';
import { openDatabase } from '../../src/platform/db/engine.js';
import { clusterLayout, readRunningServer } from '../../src/platform/db/embedded/cluster.js';
import { engineUnderTest } from '../support/database.js';
import { ensureBuilt, postmastersOf, runScript, startService, type ServiceProcess } from '../support/service-process.js';

/**
 * The embedded engine as users meet it: real processes of the built service on one DATA_DIR (one
 * PostgreSQL server whatever the number of processes), and a service killed with SIGKILL.
 */
const ANON_KEY = `anon_${randomUUID().replaceAll('-', '')}`;
const SERVICE_KEY = `service_${randomUUID().replaceAll('-', '')}`;
const ADMIN = { email: 'root.admin@engine.example', password: 'Engine-Admin-2026' };

const dataDirs: string[] = [];
const running: ServiceProcess[] = [];

function newDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'risk-engine-test-'));
  // mkdtemp makes it 0700: let the server user (when the tests run as root) through.
  chmodSync(dir, 0o755);
  dataDirs.push(dir);
  return join(dir, 'data');
}

async function start(env: Record<string, string>): Promise<ServiceProcess> {
  const service = await startService({ AUTH_ANON_KEY: ANON_KEY, AUTH_SERVICE_ROLE_KEY: SERVICE_KEY, ...env });
  running.push(service);
  return service;
}

async function signIn(service: ServiceProcess, email: string, password: string, apikey = ANON_KEY) {
  const response = await fetch(`${service.baseUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return { status: response.status, body: (await response.json()) as { access_token?: string } };
}

async function api(service: ServiceProcess, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${service.baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } };
}

// These tests run the embedded engine whatever the leg: on the server leg (TEST_DATABASE_URL) they would
// only repeat the embedded leg.
const embeddedLeg = engineUnderTest() === 'embedded';

beforeAll(() => {
  if (embeddedLeg) ensureBuilt();
}, 180_000);

afterAll(async () => {
  for (const service of running) if (service.child.exitCode === null && service.child.signalCode === null) await service.stop();
  for (const dataDir of dataDirs) {
    // A failed test may leave a server behind: stop it before removing its files.
    for (const pid of postmastersOf(clusterLayout(join(dataDir, 'data')).clusterDir)) process.kill(pid, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);

describe.runIf(embeddedLeg)('one DATA_DIR, several processes: one PostgreSQL server (D1)', () => {
  it('a second service and the demo join the first service\'s server; the demo\'s users sign in to both services', async () => {
    const DATA_DIR = newDataDir();
    const { clusterDir } = clusterLayout(DATA_DIR);
    const first = await start({ DATA_DIR });
    const second = await start({ DATA_DIR });
    expect(second.output()).not.toContain('Initialising');
    expect(postmastersOf(clusterDir)).toHaveLength(1);

    const demo = await runScript('demo.js', { DATA_DIR, PUBLIC_URL: first.baseUrl, AUTH_ANON_KEY: ANON_KEY, AUTH_SERVICE_ROLE_KEY: SERVICE_KEY });
    expect(demo.code, demo.output).toBe(0);
    expect(demo.output).toContain(`apikey (anon key): ${ANON_KEY}`);
    expect(postmastersOf(clusterDir)).toHaveLength(1);

    for (const person of [DEMO_SUPER_ADMIN, ...DEMO_MEMBERS]) {
      expect(demo.output).toContain(person.email);
      for (const service of [first, second]) {
        const signedIn = await signIn(service, person.email, person.password);
        expect(signedIn.status, `${person.email} at ${service.baseUrl}`).toBe(200);
        const me = await api(service, signedIn.body.access_token as string, 'GET', '/me');
        expect(me.status).toBe(200);
        expect(me.body.data).toMatchObject({ email: person.email, role: person.role });
      }
    }

    // The first service leaves; the second still uses the server, so it keeps running.
    expect(await first.stop()).toBe(0);
    expect(postmastersOf(clusterDir)).toHaveLength(1);
    expect((await signIn(second, DEMO_SUPER_ADMIN.email, DEMO_SUPER_ADMIN.password)).status).toBe(200);
    // The last process to leave stops it.
    expect(await second.stop()).toBe(0);
    expect(postmastersOf(clusterDir)).toEqual([]);
    expect(readRunningServer(clusterLayout(DATA_DIR))).toBeNull();
  }, 240_000);
});

describe.runIf(embeddedLeg)('recovery after SIGKILL (D1: no acknowledged write lost)', () => {
  it('adopts the server a killed service left behind, then restarts after a crash of the server itself; every acknowledged write is there and the audit chain is valid', async () => {
    const DATA_DIR = newDataDir();
    const layout = clusterLayout(DATA_DIR);
    const env = { DATA_DIR, BOOTSTRAP_SUPER_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_SUPER_ADMIN_PASSWORD: ADMIN.password };
    const acknowledged: string[] = [];
    const writeSome = async (service: ServiceProcess, count: number) => {
      const token = (await signIn(service, ADMIN.email, ADMIN.password)).body.access_token as string;
      for (let i = 0; i < count; i += 1) {
        const created = await api(service, token, 'POST', '/admin/enterprises', { name: `Recovery ${randomUUID()}`, country: 'GB' });
        expect(created.status).toBe(201);
        acknowledged.push(created.body.data['id'] as string);
      }
      return token;
    };

    const first = await start(env);
    await writeSome(first, 5);
    await first.kill();
    // The service is gone; its server still runs, with no process using it.
    const orphan = readRunningServer(layout);
    expect(orphan).not.toBeNull();

    const second = await start(env);
    expect(readRunningServer(layout)?.pid).toBe(orphan?.pid);
    expect(second.output()).not.toContain('Initialising');
    await writeSome(second, 5);
    await second.kill();
    // Now the server crashes too (its whole process group, at once).
    const server = readRunningServer(layout) as NonNullable<ReturnType<typeof readRunningServer>>;
    process.kill(-server.pid, 'SIGKILL');
    for (let i = 0; i < 100 && postmastersOf(layout.clusterDir).length > 0; i += 1) await new Promise((r) => setTimeout(r, 50));

    const third = await start(env);
    const token = (await signIn(third, ADMIN.email, ADMIN.password)).body.access_token as string;
    const listed = await fetch(`${third.baseUrl}/api/v1/admin/enterprises?page_size=100`, { headers: { authorization: `Bearer ${token}` } });
    expect(listed.status).toBe(200);
    const ids = ((await listed.json()) as { data: Array<{ id: string }> }).data.map((enterprise) => enterprise.id);
    expect(ids).toEqual(expect.arrayContaining(acknowledged));

    // The audit chain, read by another process joining the same server through its socket.
    const database = await openDatabase({ kind: 'embedded-dir', dataDir: DATA_DIR }, { poolSize: 1 });
    try {
      const platformChain = await verifyAuditChain(database.db, null);
      expect(platformChain.valid).toBe(true);
      expect(platformChain.entries_checked).toBeGreaterThanOrEqual(acknowledged.length);
    } finally {
      await database.close();
    }
    expect(postmastersOf(layout.clusterDir)).toHaveLength(1);
    expect(await third.stop()).toBe(0);
    expect(postmastersOf(layout.clusterDir)).toEqual([]);
  }, 240_000);
});
