import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadBinaries, resolveServerUser, type PostgresBinaries, type ServerUser } from './binaries.js';
import {
  initialiseCluster,
  isInitialised,
  prepareDirectories,
  readRunningServer,
  startCluster,
  stopCluster,
  stopClusterNow,
  type ClusterLayout,
  type RunningServer,
} from './cluster.js';
import { withLockFile } from './lock-file.js';
import { placeServer } from './server-placement.js';
import { guardClient } from '../connection-guard.js';

/**
 * The PostgreSQL server of one DATA_DIR, shared by every process that uses that DATA_DIR: the service,
 * a second instance, `npm run demo`, `npm run migrate`. Each process holds a lease (one idle connection
 * named LEASE_NAME); the server counts them for us, and a killed process's lease ends with its socket.
 */
export interface EmbeddedServer {
  dataDir: string;
  socketDir: string;
  port: number;
  /** True when this process started the server; false when it joined (or adopted) a running one. */
  started: boolean;
  /** A connection URL through the server's socket, for any role and database on it. */
  url(options?: { database?: string; role?: string }): string;
  /** Creates the database when it does not exist yet (optionally as a copy of a template). */
  ensureDatabase(name: string, template?: string): Promise<void>;
  /** Creates a login role without any attribute (no superuser, no createdb, no createrole) when it does not exist yet. */
  ensureRole(name: string): Promise<void>;
  /** Ends this process's lease; the last process to leave stops the server. */
  release(): Promise<void>;
  /** For exit handlers of throw-away servers (memory://): stops it at once, synchronously. */
  stopNow(): void;
}

export const LEASE_NAME = 'risk-assurance-lease';

const EPHEMERAL_SETTINGS = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

export interface JoinOptions {
  /** Server settings for when this process starts it (`-c name=value`); ignored when joining. */
  settings?: Record<string, string>;
  /**
   * Throw-away data (memory://, test runs): initdb skips its final sync and the server does not fsync.
   * Never for DATA_DIR, where an acknowledged write must survive a crash.
   */
  ephemeral?: boolean;
  log?: (message: string) => void;
}

export async function joinEmbeddedServer(dataDir: string, options: JoinOptions = {}): Promise<EmbeddedServer> {
  const log = options.log ?? (() => undefined);
  const installed = await loadBinaries();
  const user = resolveServerUser();
  // Where this user can reach the programs and the cluster (placed beside DATA_DIR's reach when needed).
  const { layout, binaries } = placeServer(dataDir, installed, user, log);

  const connect = () =>
    withLockFile(layout.lockFile, async () => {
      let running = await settled(layout);
      let started = false;
      if (running === null) {
        prepareDirectories(layout, user);
        if (!isInitialised(layout)) {
          log(`Initialising the embedded PostgreSQL server in ${layout.clusterDir}.`);
          await initialiseCluster(layout, binaries, user, options.ephemeral === true);
        }
        const settings = options.ephemeral === true ? { ...EPHEMERAL_SETTINGS, ...options.settings } : (options.settings ?? {});
        await startCluster(layout, binaries, user, settings);
        running = readRunningServer(layout);
        if (running === null) throw new Error(`The embedded PostgreSQL server in ${layout.clusterDir} stopped right after starting.`);
        started = true;
      }
      const lease = new pg.Client({ connectionString: urlOf(running, 'postgres', 'postgres'), application_name: LEASE_NAME });
      lease.on('error', () => undefined);
      await lease.connect();
      return { running, started, lease };
    });

  // A server found running may be one that has just died (its postmaster not yet reaped, its pid file
  // still there): joining it is refused. Look again shortly; once it is gone, this process starts it.
  const connectOrRetry = async () => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await connect();
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (attempt >= 50 || (code !== 'ECONNREFUSED' && code !== 'ENOENT')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  };

  let { running, started, lease } = await connectOrRetry();
  log(
    started
      ? `Started the embedded PostgreSQL server (pid ${running.pid}) on the socket in ${running.socketDir}.`
      : `Joined the embedded PostgreSQL server already running on ${layout.dataDir} (pid ${running.pid}).`,
  );

  let released = false;
  // A lost lease (the server was stopped or crashed under us) is renewed, restarting the server if needed,
  // so that this process keeps counting as a user of it. Release waits for a renewal under way: the lease it
  // gives back must be the one that counts, or a server restarted at that moment would be left running.
  let renewing: Promise<void> = Promise.resolve();
  const watch = (client: pg.Client) =>
    client.once('end', () => {
      if (released) return;
      renewing = (async () => {
        while (!released) {
          await sleep(1_000);
          if (released) return;
          try {
            ({ running, lease } = await connect());
            watch(lease);
            return;
          } catch {
            // Try again in a second.
          }
        }
      })();
    });
  watch(lease);

  return {
    dataDir: layout.dataDir,
    get socketDir() {
      return running.socketDir;
    },
    get port() {
      return running.port;
    },
    started,
    url: ({ database = 'postgres', role = 'postgres' } = {}) => urlOf(running, database, role),
    async ensureDatabase(name, template) {
      await asSuperuser(running, async (client) => {
        const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
        if (exists.rowCount !== 0) return;
        const from = template !== undefined ? ` template ${client.escapeIdentifier(template)}` : '';
        await client.query(`create database ${client.escapeIdentifier(name)}${from}`).catch(createdMeanwhile);
      });
    },
    async ensureRole(name) {
      await asSuperuser(running, async (client) => {
        const exists = await client.query('select 1 from pg_roles where rolname = $1', [name]);
        if (exists.rowCount !== 0) return;
        await client.query(`create role ${client.escapeIdentifier(name)} login`).catch(createdMeanwhile);
      });
    },
    async release() {
      if (released) return;
      released = true;
      await renewing;
      await release(layout, binaries, user, lease);
    },
    stopNow() {
      released = true;
      stopClusterNow(layout, binaries, user);
    },
  };
}

async function asSuperuser(running: RunningServer, work: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = guardClient(new pg.Client({ connectionString: urlOf(running, 'postgres', 'postgres') }));
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** Another process created the same database or role at the same moment: what was wanted exists. */
function createdMeanwhile(error: { code?: string }): void {
  if (error.code !== '42P04' && error.code !== '42710' && error.code !== '23505') throw error;
}

async function release(layout: ClusterLayout, binaries: PostgresBinaries, user: ServerUser, lease: pg.Client): Promise<void> {
  await withLockFile(layout.lockFile, async () => {
    let others: number | null = null;
    try {
      const { rows } = await lease.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()',
        [LEASE_NAME],
      );
      others = rows[0]?.n ?? 0;
    } catch {
      // The server is already gone (or our lease is): nothing of ours to stop.
    }
    await lease.end().catch(() => undefined);
    if (others === 0 && readRunningServer(layout) !== null) await stopCluster(layout, binaries, user);
  });
}

/** The running server once it is ready; null when none runs (or it finished stopping). */
async function settled(layout: ClusterLayout): Promise<RunningServer | null> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const running = readRunningServer(layout);
    if (running === null || running.status === 'ready') return running;
    if (Date.now() > deadline) {
      throw new Error(`The embedded PostgreSQL server (pid ${running.pid}) stays "${running.status}"; see ${layout.logFile}.`);
    }
    await sleep(100);
  }
}

function urlOf(running: RunningServer, database: string, role: string): string {
  return `postgresql://${encodeURIComponent(role)}@localhost:${running.port}/${encodeURIComponent(database)}?host=${encodeURIComponent(running.socketDir)}`;
}
