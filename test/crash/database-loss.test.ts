import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterLayout, readRunningServer } from '../../src/platform/db/embedded/cluster.js';
import { ensureBuilt, type ServiceProcess } from '../support/service-process.js';
import { crashPlace, healthyWithin, signIn, startOn, writeBurst, type CrashPlace } from './crash-support.js';

/**
 * The database going away under a running service (finding 1): its connections terminated by the server,
 * and the embedded postmaster killed. The process stays up, requests answer 503 meanwhile (never a dropped
 * socket, never a 500), and it serves again by itself.
 */
describe('the database going away under the running service', () => {
  let place: CrashPlace;
  let service: ServiceProcess;
  let token: string;
  beforeAll(async () => {
    ensureBuilt();
    place = await crashPlace();
    service = await startOn(place);
    token = await signIn(service);
  }, 180_000);
  afterAll(async () => {
    if (service.child.exitCode === null && service.child.signalCode === null) await service.stop();
    await place.remove();
  }, 60_000);

  const alive = () => service.child.exitCode === null && service.child.signalCode === null;

  it('pg_terminate_backend of all its connections under load, five times: 2xx or 503 only, the process stays up, health 200 within 5 s', async () => {
    let stop = false;
    const burst = writeBurst(service, token, 8, () => stop);
    const admin = place.superuser();
    admin.on('error', () => undefined);
    await admin.connect();
    try {
      for (let round = 0; round < 5; round += 1) {
        await sleep(300);
        // Every connection of the service to its database (the embedded engine's lease is on another database).
        await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [place.databaseName]);
      }
    } finally {
      await admin.end();
    }
    const back = await healthyWithin(service, 5_000);
    stop = true;
    const { statuses } = await burst;
    expect(alive()).toBe(true);
    expect(back).toBe(true);
    expect([...statuses.keys()].filter((status) => status !== 201 && status !== 503), JSON.stringify([...statuses])).toEqual([]);
    expect(statuses.get(201) ?? 0).toBeGreaterThan(0);
    process.stdout.write(`crash: pg_terminate_backend ×5 under load: ${JSON.stringify([...statuses])}\n`);
  });

  it('kill -9 of the embedded postmaster: the process stays up, answers 503 meanwhile, and serves again within 15 s', async (test) => {
    if (place.engine !== 'embedded') test.skip();
    const layout = clusterLayout(place.dataDir);
    const before = readRunningServer(layout);
    expect(before).not.toBeNull();
    process.kill(before!.pid, 'SIGKILL');
    const during = await fetch(`${service.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    expect([200, 503]).toContain(during.status);
    expect(await healthyWithin(service, 15_000)).toBe(true);
    expect(alive()).toBe(true);
    expect(readRunningServer(layout)?.pid).not.toBe(before!.pid);
    let stop = false;
    const { statuses, acknowledged } = await writeBurst(service, token, 2, (soFar) => stop || soFar >= 5);
    stop = true;
    expect(acknowledged.length, JSON.stringify([...statuses])).toBeGreaterThanOrEqual(5);
  });
});
