import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { clusterLayout } from '../../src/platform/db/embedded/cluster.js';
import { postmastersOf, startService, type ServiceProcess } from '../support/service-process.js';

/** The built service as its own process on a persisted DATA_DIR, as the crash suite drives it. */
export const ADMIN = { email: 'crash.admin@crash.example', password: 'Crash-Admin-2026' };
const ANON_KEY = `anon_${randomUUID().replaceAll('-', '')}`;
const SERVICE_KEY = `service_${randomUUID().replaceAll('-', '')}`;

export function crashDataDir(): { dataDir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'risk-crash-test-'));
  // mkdtemp makes it 0700: let the server user (when the suite runs as root) through.
  chmodSync(dir, 0o755);
  const dataDir = join(dir, 'data');
  return {
    dataDir,
    remove() {
      for (const pid of postmastersOf(clusterLayout(dataDir).clusterDir)) process.kill(pid, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function startOn(dataDir: string): Promise<ServiceProcess> {
  return startService({
    DATA_DIR: dataDir,
    AUTH_ANON_KEY: ANON_KEY,
    AUTH_SERVICE_ROLE_KEY: SERVICE_KEY,
    BOOTSTRAP_SUPER_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_SUPER_ADMIN_PASSWORD: ADMIN.password,
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
