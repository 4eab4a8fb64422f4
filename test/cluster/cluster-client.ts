import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { parsePrometheus, type Sample } from '../support/prometheus.js';
import { startService, type ServiceProcess } from '../support/service-process.js';
import type { Cluster } from './cluster-support.js';

/** The service instances of the scale-out suite and the calls it makes on them. */

export const ANON_KEY = `anon_${randomUUID().replaceAll('-', '')}`;
export const SERVICE_KEY = `service_${randomUUID().replaceAll('-', '')}`;
export const METRICS_TOKEN = `metrics_${randomUUID().replaceAll('-', '')}`;
export const SUPER_ADMIN = { email: 'cluster.admin@cluster.example', password: 'Cluster-Admin-2026' };
export const PASSWORD = 'Cluster-User-2026';
/** One key signs every instance's audit checkpoints (docs/scaling.md): the database never holds it. */
const AUDIT_KEY = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/**
 * Each instance as an operator runs it behind a load balancer: its own DATA_DIR, PgBouncer as
 * DATABASE_URL, the replica, Redis, the load balancer trusted for client addresses.
 */
export function startInstance(cluster: Cluster, name: string, extra: Record<string, string> = {}): Promise<ServiceProcess> {
  return startService({
    DATA_DIR: join(cluster.dir, `instance-${name}`),
    DATABASE_URL: cluster.bouncerUrl,
    DATABASE_POOLER: 'pgbouncer',
    DATABASE_REPLICA_URL: cluster.replicaUrl,
    // Wide, so that the replica paused on purpose (read-your-writes) is still used for other callers' reads.
    REPLICA_MAX_LAG_MS: '30000',
    REDIS_URL: cluster.redisUrl,
    TRUST_PROXY: '127.0.0.1',
    // The balancer's address: every instance issues and accepts tokens of that issuer (docs/scaling.md).
    PUBLIC_URL: 'http://risk.cluster.test',
    AUTH_ANON_KEY: ANON_KEY,
    AUTH_SERVICE_ROLE_KEY: SERVICE_KEY,
    AUDIT_SIGNING_KEY: AUDIT_KEY,
    METRICS_TOKEN,
    BOOTSTRAP_SUPER_ADMIN_EMAIL: SUPER_ADMIN.email,
    BOOTSTRAP_SUPER_ADMIN_PASSWORD: SUPER_ADMIN.password,
    ...extra,
  });
}

let address = 0;
/** A client address of its own (X-Forwarded-For through the trusted balancer): the per-address budget is not under test. */
export const clientAddress = () => {
  address += 1;
  return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
};

export interface Answer {
  status: number;
  body: any;
  /** When the request was sent (ms since the epoch). */
  sentAt: number;
}

/**
 * A call of one instance over the network (fetch to its port, through the balancer's X-Forwarded-For): the
 * instances are separate processes, so the cast's `call` (test/support/cast.ts, app.inject on an app in this
 * process) cannot reach them. Anonymous calls (token null) and any path (/auth/v1, /health) are allowed.
 */
export async function call(service: ServiceProcess, method: string, path: string, token: string | null, body?: unknown): Promise<Answer> {
  const sentAt = Date.now();
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: {
      'x-forwarded-for': clientAddress(),
      apikey: ANON_KEY,
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON (an export file): kept as text.
  }
  return { status: response.status, body: parsed, sentAt };
}

export async function signIn(service: ServiceProcess, credentials: { email: string; password: string }): Promise<string> {
  const answer = await call(service, 'POST', '/auth/v1/token?grant_type=password', null, credentials);
  if (answer.status !== 200) throw new Error(`sign-in of ${credentials.email} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.access_token as string;
}

/** A user of an enterprise with a password (the super admin creates them; the service-role key sets the password). */
export async function createMember(service: ServiceProcess, superToken: string, enterpriseId: string, role: 'admin' | 'assessor' | 'reviewer') {
  const email = `${role}.${randomUUID().slice(0, 8)}@cluster.example`;
  const created = await call(service, 'POST', `/api/v1/admin/enterprises/${enterpriseId}/users`, superToken, { email, full_name: `Cluster ${role}`, role });
  if (created.status !== 201) throw new Error(`creating a user failed: ${created.status} ${JSON.stringify(created.body)}`);
  const userId = created.body.data.user_id as string;
  const password = await fetch(`${service.baseUrl}/auth/v1/admin/users/${userId}`, {
    method: 'PUT',
    headers: { apikey: ANON_KEY, authorization: `Bearer ${SERVICE_KEY}`, 'content-type': 'application/json', 'x-forwarded-for': clientAddress() },
    body: JSON.stringify({ password: PASSWORD }),
  });
  if (password.status !== 200) throw new Error(`setting a password failed: ${password.status} ${await password.text()}`);
  return { userId, email, password: PASSWORD };
}

export async function createEnterprise(service: ServiceProcess, superToken: string): Promise<string> {
  const created = await call(service, 'POST', '/api/v1/admin/enterprises', superToken, { name: `Cluster ${randomUUID()}`, country: 'GB' });
  if (created.status !== 201) throw new Error(`creating an enterprise failed: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.data.id as string;
}

/** The instance's metrics, as samples. */
export async function scrape(service: ServiceProcess): Promise<Sample[]> {
  const response = await fetch(`${service.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  return parsePrometheus(await response.text()).samples;
}

export async function metricValue(service: ServiceProcess, name: string, labels: Record<string, string>): Promise<number> {
  const samples = await scrape(service);
  return samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}
