import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { runAsServerUser, runAsServerUserSync, serverUserCan, type PostgresBinaries, type ServerUser } from './binaries.js';

/** Where one embedded server keeps its files under DATA_DIR. */
export interface ClusterLayout {
  dataDir: string;
  /** The PostgreSQL data directory (initdb's PGDATA). */
  clusterDir: string;
  /** Where the server puts its Unix socket; inside DATA_DIR unless the path would be too long. */
  socketDir: string;
  logFile: string;
  lockFile: string;
}

/** With no TCP listener the port only names the socket file (`.s.PGSQL.5432`). */
export const SOCKET_PORT = 5432;
/** sun_path holds 108 bytes including the terminating NUL. */
const MAX_SOCKET_PATH = 107;

export function clusterLayout(dataDir: string): ClusterLayout {
  const root = resolve(dataDir);
  const clusterDir = join(root, 'postgres');
  const inside = join(root, 'run');
  const socketFile = join(inside, `.s.PGSQL.${SOCKET_PORT}`);
  // A deep DATA_DIR would overflow the socket path: fall back to a short directory named after the cluster.
  const socketDir =
    Buffer.byteLength(socketFile) <= MAX_SOCKET_PATH
      ? inside
      : join(tmpdir(), `risk-pg-${createHash('sha256').update(clusterDir).digest('hex').slice(0, 16)}`);
  // The log is written by the server user, so it lives in the directory that user owns.
  return { dataDir: root, clusterDir, socketDir, logFile: join(clusterDir, 'server.log'), lockFile: join(root, 'engine.lock') };
}

export function isInitialised(layout: ClusterLayout): boolean {
  return existsSync(join(layout.clusterDir, 'PG_VERSION'));
}

/**
 * Creates DATA_DIR and the server's directories, owned by the server user. When that user cannot reach
 * them (a DATA_DIR under a 0700 home of root), it fails here with the fix rather than in initdb.
 */
export function prepareDirectories(layout: ClusterLayout, user: ServerUser): void {
  mkdirSync(layout.dataDir, { recursive: true });
  for (const dir of [layout.clusterDir, layout.socketDir]) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (user.uid !== undefined) chownSync(dir, user.uid, user.gid as number);
    chmodSync(dir, 0o700);
  }
  if (user.uid === undefined) return;
  for (const dir of [layout.clusterDir, layout.socketDir]) {
    if (serverUserCan(user, '-w', dir)) continue;
    const blocked = firstUnreachableAncestor(user, dir);
    const mode = blocked !== null ? (statSync(blocked).mode & 0o777).toString(8).padStart(4, '0') : null;
    throw new Error(
      `DATA_DIR ${layout.dataDir} cannot hold the embedded PostgreSQL server: PostgreSQL refuses to run as root, so it ` +
        `runs as the user "${user.name}", and that user cannot reach ${dir}` +
        (blocked !== null ? ` (it may not enter ${blocked}, mode ${mode})` : '') +
        `. Set DATA_DIR to a directory that user can reach (for example /var/lib/risk-assurance), ` +
        (blocked !== null ? `let it through with \`chmod o+x ${blocked}\`, ` : '') +
        'or set DATABASE_URL to a PostgreSQL server.',
    );
  }
}

/** The first directory on the way to `dir` that the server user may not enter; null when none. */
export function firstUnreachableAncestor(user: ServerUser, dir: string): string | null {
  const chain: string[] = [];
  for (let current = dir; ; current = dirname(current)) {
    chain.unshift(current);
    if (dirname(current) === current) break;
  }
  return chain.find((ancestor) => !serverUserCan(user, '-x', ancestor)) ?? null;
}

export async function initialiseCluster(layout: ClusterLayout, binaries: PostgresBinaries, user: ServerUser, noSync: boolean): Promise<void> {
  // Trust over the socket only: the socket directory is private to the server user (and root), and the
  // server listens on no TCP address. The builtin C.UTF-8 locale sorts the same on every platform.
  const { code, output } = await runAsServerUser(user, binaries.initdb, [
    `--pgdata=${layout.clusterDir}`,
    '--username=postgres',
    '--auth-local=trust',
    '--auth-host=reject',
    '--encoding=UTF8',
    '--locale=C',
    '--locale-provider=builtin',
    '--builtin-locale=C.UTF-8',
    '--no-instructions',
    ...(noSync ? ['--no-sync'] : []),
  ]);
  if (code !== 0) throw new Error(`initdb failed for ${layout.clusterDir} (exit ${String(code)}): ${output.trim()}`);
}

/** The running server as its postmaster.pid describes it, or null when none runs on these files. */
export interface RunningServer {
  pid: number;
  socketDir: string;
  port: number;
  status: string;
}

export function readRunningServer(layout: ClusterLayout): RunningServer | null {
  let lines: string[];
  try {
    lines = readFileSync(join(layout.clusterDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  // postmaster.pid: pid, data directory, start time, port, socket directory, listen address, shmem key, status.
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !isPostgresProcess(pid)) return null;
  return { pid, port: Number(lines[3]), socketDir: (lines[4] ?? '').trim(), status: (lines[7] ?? '').trim() };
}

/** After a reboot the recorded pid may belong to another program; /proc tells where it exists. */
function isPostgresProcess(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    return true;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function startCluster(
  layout: ClusterLayout,
  binaries: PostgresBinaries,
  user: ServerUser,
  settings: Record<string, string>,
): Promise<void> {
  const options = {
    listen_addresses: "''",
    unix_socket_directories: `'${layout.socketDir}'`,
    unix_socket_permissions: '0700',
    port: String(SOCKET_PORT),
    ...settings,
  };
  const flags = Object.entries(options).map(([name, value]) => `-c ${name}=${value}`).join(' ');
  // pg_ctl detaches the server (its own session): Ctrl-C in the terminal reaches the service, which then
  // stops the server itself; a killed service leaves it running for the next start to adopt.
  const { code, output } = await runAsServerUser(user, binaries.pg_ctl, ['start', '--wait', '--timeout=120', `--pgdata=${layout.clusterDir}`, `--log=${layout.logFile}`, '-o', flags]);
  if (code !== 0) throw new Error(`The embedded PostgreSQL server did not start (exit ${String(code)}): ${output.trim()}\n${logTail(layout)}`);
}

export async function stopCluster(layout: ClusterLayout, binaries: PostgresBinaries, user: ServerUser): Promise<void> {
  // "fast": open sessions are ended, every committed transaction is already durable.
  const { code, output } = await runAsServerUser(user, binaries.pg_ctl, ['stop', '--wait', '--timeout=60', '--mode=fast', `--pgdata=${layout.clusterDir}`]);
  if (code !== 0 && readRunningServer(layout) !== null) throw new Error(`The embedded PostgreSQL server did not stop: ${output.trim()}`);
}

/** For exit handlers: stops the server at once (no checkpoint; only for throw-away clusters). */
export function stopClusterNow(layout: ClusterLayout, binaries: PostgresBinaries, user: ServerUser): void {
  runAsServerUserSync(user, binaries.pg_ctl, ['stop', '--wait', '--timeout=10', '--mode=immediate', `--pgdata=${layout.clusterDir}`]);
}

function logTail(layout: ClusterLayout): string {
  try {
    return readFileSync(layout.logFile, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '';
  }
}
