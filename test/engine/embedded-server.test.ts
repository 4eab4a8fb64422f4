import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../src/platform/db/engine.js';
import { clusterLayout, readRunningServer } from '../../src/platform/db/embedded/cluster.js';
import { PLACEMENT_RECORD } from '../../src/platform/db/embedded/server-placement.js';
import { joinEmbeddedServer, LEASE_NAME } from '../../src/platform/db/embedded/embedded-server.js';
import { engineUnderTest } from '../support/database.js';
import { TEST_DATA_DIR } from '../support/global-setup.js';

/** The embedded server's own rules: where its files and socket go, who may use it, who stops it. */
const roots: string[] = [];
function scratch(mode = 0o755): string {
  const dir = mkdtempSync(join(tmpdir(), 'risk-engine-unit-'));
  chmodSync(dir, mode);
  roots.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of roots) rmSync(dir, { recursive: true, force: true });
});

describe('embedded server layout', () => {
  it('keeps the cluster, its socket and its log under DATA_DIR', () => {
    const layout = clusterLayout('/var/lib/risk');
    expect(layout).toMatchObject({ clusterDir: '/var/lib/risk/postgres', socketDir: '/var/lib/risk/run', lockFile: '/var/lib/risk/engine.lock' });
  });

  it('moves the socket to a short directory named after the cluster when DATA_DIR is too deep for a socket path (107 bytes)', () => {
    const deep = `/srv/${'d'.repeat(100)}`;
    const layout = clusterLayout(deep);
    expect(layout.socketDir.startsWith(tmpdir())).toBe(true);
    expect(Buffer.byteLength(join(layout.socketDir, '.s.PGSQL.5432'))).toBeLessThanOrEqual(107);
    expect(clusterLayout(deep).socketDir).toBe(layout.socketDir);
    expect(clusterLayout(`${deep}x`).socketDir).not.toBe(layout.socketDir);
  });
});

// Real servers of their own: run on the embedded leg only (the server leg would repeat them).
describe.runIf(engineUnderTest() === 'embedded')('embedded server processes', () => {
  it.runIf(process.getuid?.() === 0)(
    'as root, a DATA_DIR the server user cannot reach: the cluster is placed where it can, recorded in DATA_DIR, and runs there',
    async () => {
      const locked = scratch(0o700);
      const dataDir = join(locked, 'data');
      const said: string[] = [];
      const server = await joinEmbeddedServer(dataDir, { ephemeral: true, log: (line) => said.push(line) });
      const record = JSON.parse(readFileSync(join(dataDir, PLACEMENT_RECORD), 'utf8')) as { cluster: string };
      try {
        expect(server.started).toBe(true);
        expect(said.join('\n')).toContain(`cannot reach ${dataDir} (it may not enter ${locked}, mode 0700)`);
        expect(existsSync(join(record.cluster, 'PG_VERSION'))).toBe(true);
        expect(statSync(locked).mode & 0o777).toBe(0o700);
      } finally {
        await server.release();
        rmSync(dirname(record.cluster), { recursive: true, force: true });
      }
    },
  );

  // These two join the run's own server (started by the global setup): joining costs no initdb.
  it('listens on no TCP address: only its Unix socket, with trust for local connections', async () => {
    const server = await joinEmbeddedServer(TEST_DATA_DIR);
    expect(server.started).toBe(false);
    try {
      const client = new pg.Client({ connectionString: server.url() });
      await client.connect();
      const { rows } = await client.query<{ listen: string; version: string }>(
        "select current_setting('listen_addresses') as listen, current_setting('server_version_num') as version",
      );
      await client.end();
      expect(rows[0]).toMatchObject({ listen: '' });
      expect(Number(rows[0]?.version)).toBeGreaterThanOrEqual(180000);
    } finally {
      await server.release();
    }
  }, 60_000);

  it('counts its users: the last process to leave stops the server, not the one that started it', async () => {
    const dataDir = join(scratch(), 'data');
    const starter = await joinEmbeddedServer(dataDir, { ephemeral: true });
    const joiner = await joinEmbeddedServer(dataDir, { ephemeral: true });
    expect([starter.started, joiner.started]).toEqual([true, false]);
    const pid = readRunningServer(clusterLayout(dataDir))?.pid;
    await starter.release();
    expect(readRunningServer(clusterLayout(dataDir))?.pid).toBe(pid);
    await joiner.release();
    expect(readRunningServer(clusterLayout(dataDir))).toBeNull();
  }, 60_000);

  it('a process whose server was stopped under it (by hand) starts it again and keeps counting as its user', async () => {
    const dataDir = join(scratch(), 'data');
    const layout = clusterLayout(dataDir);
    const server = await joinEmbeddedServer(dataDir, { ephemeral: true });
    try {
      const first = readRunningServer(layout)?.pid;
      // By hand, as an operator would: a fast shutdown signal to the postmaster. No program of the
      // installation is run, so this holds as root in a 0700 home too, where the server's user cannot reach
      // node_modules (the service places its programs elsewhere then; the test need not).
      if (first === undefined) throw new Error('the server the test joined is not running');
      process.kill(first, 'SIGINT');
      let again = readRunningServer(layout);
      for (let i = 0; i < 300 && (again === null || again.pid === first || again.status !== 'ready'); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        again = readRunningServer(layout);
      }
      expect(again?.pid).not.toBe(first);
      // The lease reconnects once the restarted server accepts connections: wait for it (bounded).
      const client = new pg.Client({ connectionString: server.url() });
      await client.connect();
      let leases = 0;
      for (let i = 0; i < 200 && leases !== 1; i += 1) {
        const { rows } = await client.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where application_name = $1',
          [LEASE_NAME],
        );
        leases = rows[0]?.n ?? 0;
        if (leases !== 1) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await client.end();
      expect(leases).toBe(1);
    } finally {
      await server.release();
    }
    expect(readRunningServer(layout)).toBeNull();
  }, 90_000);

  it('hands out URLs for other roles and databases on its socket (an owner and a runtime role)', async () => {
    const server = await joinEmbeddedServer(TEST_DATA_DIR);
    // Named after the run's template, so that the run's teardown drops it whatever happens here.
    const database = `${inject('serverTemplate')}_roles`;
    const role = `runtime_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: server.url() });
    await admin.connect();
    try {
      await admin.query(`create role ${role} login`);
      await server.ensureDatabase(database);
      const asRuntime = new pg.Client({ connectionString: server.url({ database, role }) });
      await asRuntime.connect();
      const { rows } = await asRuntime.query<{ who: string; db: string }>('select current_user as who, current_database() as db');
      await asRuntime.end();
      expect(rows[0]).toEqual({ who: role, db: database });
    } finally {
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.query(`drop role if exists ${role}`);
      await admin.end();
      await server.release();
    }
  }, 60_000);

  it('memory:// runs a server of its own in a temporary directory, gone when the database closes (D1)', async () => {
    const database = await openDatabase({ kind: 'embedded-memory' });
    const dataDir = database.server?.dataDir as string;
    expect(database.engine).toBe('embedded');
    expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
    const { rows } = await sql<{ n: number }>`select 1 as n`.execute(database.db);
    expect(rows).toEqual([{ n: 1 }]);
    await database.close();
    expect(existsSync(dataDir)).toBe(false);
    await expect(database.ping()).rejects.toThrow('database is closed');
  }, 60_000);
});
