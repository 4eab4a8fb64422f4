import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort } from '../support/service-process.js';

/**
 * The cluster the scale-out suite runs the service on, all on loopback and under one temporary directory
 * removed at the end: a PostgreSQL primary and a streaming replica made from it (initdb, pg_basebackup -R,
 * from the PostgreSQL programs on the machine), PgBouncer in transaction mode in front of the primary, and
 * the Redis at 127.0.0.1:6379 (a database number of the suite's own). PostgreSQL and PgBouncer refuse to
 * run as root: when the suite is root, they run as the `postgres` user (runuser).
 */

export const DATABASE = 'risk';
/** The Redis database (of the 16) the suite uses, away from the rate-limit suite's. */
export const REDIS_DB = 9;

export interface Cluster {
  dir: string;
  primaryPort: number;
  replicaPort: number;
  bouncerPort: number;
  /** The service's DATABASE_URL: PgBouncer, transaction mode. */
  bouncerUrl: string;
  primaryUrl: string;
  replicaUrl: string;
  redisUrl: string;
  /** A superuser connection straight to the primary or the replica (the suite's own checks). */
  client(on: 'primary' | 'replica'): Promise<pg.Client>;
  stopReplica(): void;
  /** Stops everything and removes the directory; safe to call twice and after a failed start. */
  destroy(): void;
}

/** The newest PostgreSQL 15+ programs of the machine (Debian's layout), or PG_BIN. */
export function postgresBin(): string | null {
  const fromEnv = process.env['PG_BIN'];
  if (fromEnv !== undefined && existsSync(join(fromEnv, 'initdb'))) return fromEnv;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && Number(name) >= 15 && existsSync(join(root, name, 'bin', 'pg_basebackup')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length === 0 ? null : join(root, versions[0]!, 'bin');
}

export function pgbouncerBin(): string | null {
  for (const candidate of ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer']) if (existsSync(candidate)) return candidate;
  const found = spawnSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() !== '' ? found.stdout.trim() : null;
}

/** What the suite needs and lacks, in words; empty when it can run. */
export async function missingTools(): Promise<string[]> {
  const missing: string[] = [];
  if (postgresBin() === null) missing.push('PostgreSQL 15+ programs (/usr/lib/postgresql/<v>/bin: initdb, pg_basebackup)');
  if (pgbouncerBin() === null) missing.push('pgbouncer (apt-get install -y pgbouncer)');
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0) missing.push('a postgres user to run the servers as (the suite runs as root)');
  if (!(await redisAnswers())) missing.push('Redis at 127.0.0.1:6379');
  return missing;
}

async function redisAnswers(): Promise<boolean> {
  const { Redis } = await import('ioredis');
  const redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

const asRoot = () => process.getuid?.() === 0;

/** Runs a program as the servers' user (postgres when the suite is root), to its end. */
function run(program: string, args: string[], options: { allowFailure?: boolean } = {}): string {
  const [file, argv] = asRoot() ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
  try {
    return execFileSync(file, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
  } catch (error) {
    if (options.allowFailure === true) return '';
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${program} ${args.join(' ')} failed: ${failure.message}\n${failure.stdout ?? ''}\n${failure.stderr ?? ''}`);
  }
}

function serverConf(port: number, socketDir: string): string {
  return [
    `port = ${port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${socketDir}'`,
    'wal_level = replica',
    'max_wal_senders = 5',
    'hot_standby = on',
    'max_connections = 100',
    'shared_buffers = 32MB',
    // A test cluster: durability is not what is under test, speed on a shared machine is.
    'fsync = off',
    'full_page_writes = off',
    `log_min_messages = warning`,
    '',
  ].join('\n');
}

export async function startCluster(): Promise<Cluster> {
  const bin = postgresBin();
  const bouncer = pgbouncerBin();
  if (bin === null || bouncer === null) throw new Error(`missing: ${(await missingTools()).join(', ')}`);
  const dir = mkdtempSync(join(tmpdir(), 'risk-cluster-'));
  chmodSync(dir, 0o755);
  const own = (path: string) => {
    mkdirSync(path, { recursive: true, mode: 0o700 });
    if (asRoot()) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      chownSync(path, uid, gid);
    }
    return path;
  };
  const serverDir = own(join(dir, 'servers'));
  const primaryDir = join(serverDir, 'primary');
  const replicaDir = join(serverDir, 'replica');
  const socketDir = own(join(dir, 'run'));
  const [primaryPort, replicaPort, bouncerPort] = [await freePort(), await freePort(), await freePort()];
  const started: { primary: boolean; replica: boolean; bouncer: boolean } = { primary: false, replica: false, bouncer: false };
  const bouncerPidFile = join(serverDir, 'pgbouncer.pid');

  const stopServer = (dataDir: string, mode: 'fast' | 'immediate') =>
    run(join(bin, 'pg_ctl'), ['-D', dataDir, '-m', mode, '-w', '-t', '30', 'stop'], { allowFailure: true });
  let destroyed = false;
  const destroy = () => {
    if (destroyed) return;
    destroyed = true;
    if (started.bouncer && existsSync(bouncerPidFile)) {
      const pid = Number(readFileSync(bouncerPidFile, 'utf8').trim());
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Gone already.
      }
      for (let i = 0; i < 50 && processAlive(pid); i += 1) execFileSync('sleep', ['0.1']);
      if (processAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    if (started.replica) stopServer(replicaDir, 'immediate');
    if (started.primary) stopServer(primaryDir, 'immediate');
    process.removeListener('exit', destroy);
    rmSync(dir, { recursive: true, force: true });
  };
  // A run that dies without its afterAll still stops the servers.
  process.once('exit', destroy);

  try {
    run(join(bin, 'initdb'), ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-instructions']);
    writeFileSync(join(primaryDir, 'postgresql.auto.conf'), serverConf(primaryPort, socketDir), { flag: 'a' });
    run(join(bin, 'pg_ctl'), ['-D', primaryDir, '-l', join(serverDir, 'primary.log'), '-w', '-t', '60', 'start']);
    started.primary = true;
    const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/${DATABASE}`;
    const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${primaryPort}/postgres` });
    await admin.connect();
    await admin.query(`create database ${DATABASE}`);
    await admin.end();

    run(join(bin, 'pg_basebackup'), ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream', '-c', 'fast']);
    writeFileSync(join(replicaDir, 'postgresql.auto.conf'), `port = ${replicaPort}\n`, { flag: 'a' });
    run(join(bin, 'pg_ctl'), ['-D', replicaDir, '-l', join(serverDir, 'replica.log'), '-w', '-t', '60', 'start']);
    started.replica = true;

    writeFileSync(join(serverDir, 'userlist.txt'), '"postgres" ""\n');
    writeFileSync(
      join(serverDir, 'pgbouncer.ini'),
      [
        '[databases]',
        `${DATABASE} = host=127.0.0.1 port=${primaryPort} dbname=${DATABASE}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${bouncerPort}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${join(serverDir, 'userlist.txt')}`,
        'pool_mode = transaction',
        'max_client_conn = 500',
        'default_pool_size = 20',
        `logfile = ${join(serverDir, 'pgbouncer.log')}`,
        `pidfile = ${bouncerPidFile}`,
        '',
      ].join('\n'),
    );
    if (asRoot()) chownSync(join(serverDir, 'pgbouncer.ini'), Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), 0);
    run(bouncer, ['-d', join(serverDir, 'pgbouncer.ini')]);
    started.bouncer = true;
    const bouncerUrl = `postgres://postgres@127.0.0.1:${bouncerPort}/${DATABASE}`;
    await answers(bouncerUrl);

    return {
      dir,
      primaryPort,
      replicaPort,
      bouncerPort,
      bouncerUrl,
      primaryUrl,
      replicaUrl: `postgres://postgres@127.0.0.1:${replicaPort}/${DATABASE}`,
      redisUrl: `redis://127.0.0.1:6379/${REDIS_DB}`,
      async client(on) {
        const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${on === 'primary' ? primaryPort : replicaPort}/${DATABASE}` });
        client.on('error', () => undefined);
        await client.connect();
        return client;
      },
      stopReplica() {
        stopServer(replicaDir, 'fast');
        started.replica = false;
      },
      destroy,
    };
  } catch (error) {
    destroy();
    throw error;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function answers(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw error;
      await sleep(100);
    }
  }
}
