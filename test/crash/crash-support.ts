import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { EMBEDDED_DATABASE, openDatabase, type Database } from '../../src/platform/db/engine.js';
import { clusterLayout, readRunningServer } from '../../src/platform/db/embedded/cluster.js';
import { postmastersOf, startService, type ServiceProcess } from '../support/service-process.js';

/** The built service as its own process on a persisted DATA_DIR, as the crash suite drives it. */
export const ADMIN = { email: 'crash.admin@crash.example', password: 'Crash-Admin-2026' };
const ANON_KEY = `anon_${randomUUID().replaceAll('-', '')}`;
const SERVICE_KEY = `service_${randomUUID().replaceAll('-', '')}`;

/**
 * Where the service keeps its data for a crash test: a persisted embedded engine under a DATA_DIR of its
 * own, or, when TEST_DATABASE_URL names a server, a fresh database on that server (dropped afterwards).
 */
export interface CrashPlace {
  engine: 'embedded' | 'postgres';
  dataDir: string;
  env: Record<string, string>;
  /** The database as its owner, for the checks after the crashes. */
  open(): Promise<Database>;
  /** A superuser connection to the server (to terminate the service's connections). */
  superuser(): pg.Client;
  /** The database name, for pg_stat_activity. */
  databaseName: string;
  remove(): Promise<void>;
}

export async function crashPlace(): Promise<CrashPlace> {
  const dir = mkdtempSync(join(tmpdir(), 'risk-crash-test-'));
  // mkdtemp makes it 0700: let the server user (when the suite runs as root) through.
  chmodSync(dir, 0o755);
  const dataDir = join(dir, 'data');
  const serverUrl = process.env['TEST_DATABASE_URL'];
  if (serverUrl === undefined || serverUrl === '') {
    return {
      engine: 'embedded',
      dataDir,
      env: { DATA_DIR: dataDir },
      databaseName: EMBEDDED_DATABASE,
      open: () => openDatabase({ kind: 'embedded-dir', dataDir }, { poolSize: 2 }),
      superuser() {
        const running = readRunningServer(clusterLayout(dataDir));
        if (running === null) throw new Error('no embedded server runs');
        return new pg.Client({ connectionString: `postgresql://postgres@localhost:${running.port}/postgres?host=${encodeURIComponent(running.socketDir)}` });
      },
      async remove() {
        for (const pid of postmastersOf(clusterLayout(dataDir).clusterDir)) process.kill(pid, 'SIGTERM');
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const databaseName = `risk_crash_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = () => new pg.Client({ connectionString: serverUrl });
  const client = admin();
  await client.connect();
  await client.query(`create database ${databaseName}`);
  await client.end();
  const url = Object.assign(new URL(serverUrl), { pathname: `/${databaseName}` }).toString();
  return {
    engine: 'postgres',
    dataDir,
    env: { DATA_DIR: dataDir, DATABASE_URL: url },
    databaseName,
    open: () => openDatabase({ kind: 'postgres', url }, { poolSize: 2 }),
    superuser: admin,
    async remove() {
      const dropper = admin();
      await dropper.connect();
      await dropper.query(`drop database if exists ${databaseName} with (force)`);
      await dropper.end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function startOn(place: CrashPlace): Promise<ServiceProcess> {
  return startService({
    ...place.env,
    AUTH_ANON_KEY: ANON_KEY,
    AUTH_SERVICE_ROLE_KEY: SERVICE_KEY,
    BOOTSTRAP_SUPER_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_SUPER_ADMIN_PASSWORD: ADMIN.password,
    // The bursts write as fast as the service answers: its per-user limits are not what is under test.
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_HOUR: '100000000',
  });
}

export async function signIn(service: ServiceProcess): Promise<string> {
  const response = await fetch(`${service.baseUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const body = (await response.json()) as { access_token?: string };
  if (body.access_token === undefined) throw new Error(`sign-in failed: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

/** One write: an enterprise (its row, its default appetite and its audit entry commit together). */
export async function createEnterprise(service: ServiceProcess, token: string): Promise<{ status: number; id?: string }> {
  const response = await fetch(`${service.baseUrl}/api/v1/admin/enterprises`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Crash ${randomUUID()}`, country: 'GB' }),
  });
  const body = (await response.json()) as { data?: { id: string }; code?: string };
  return { status: response.status, ...(body.data !== undefined ? { id: body.data.id } : {}) };
}

/**
 * `workers` clients writing in a loop until `stop()` says so or the service goes away. Every answer is
 * kept: its status, and the id of each acknowledged (201) write; a request whose socket dropped counts as
 * `dropped`.
 */
export async function writeBurst(service: ServiceProcess, token: string, workers: number, stop: (acknowledgedSoFar: number) => boolean) {
  const acknowledged: string[] = [];
  const statuses = new Map<number | 'dropped', number>();
  const count = (key: number | 'dropped') => statuses.set(key, (statuses.get(key) ?? 0) + 1);
  const worker = async () => {
    while (!stop(acknowledged.length)) {
      try {
        const result = await createEnterprise(service, token);
        count(result.status);
        if (result.status === 201 && result.id !== undefined) acknowledged.push(result.id);
        if (result.status === 503) await sleep(20);
      } catch {
        count('dropped');
        if (service.child.exitCode !== null || service.child.signalCode !== null) return;
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return { acknowledged, statuses };
}

/** Polls /health until it answers 200; returns false when `withinMs` passes first. */
export async function healthyWithin(service: ServiceProcess, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    const response = await fetch(`${service.baseUrl}/health`).catch(() => null);
    if (response?.status === 200) return true;
    await sleep(100);
  }
  return false;
}
