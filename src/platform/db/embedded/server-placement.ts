import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { PlacementError, serverUserCan, type PostgresBinaries, type ServerUser } from './binaries.js';
import { clusterLayout, firstUnreachableAncestor, isInitialised, type ClusterLayout } from './cluster.js';

/**
 * Where the embedded server's programs and cluster live when the server's user cannot reach them where
 * they are. As root, PostgreSQL runs as `postgres`, which cannot enter a 0700 home: a clone in /root has
 * its programs (node_modules) and its DATA_DIR out of that user's reach. The service then keeps, named
 * under PLACEMENT_ROOT a root-owned copy of the programs that anyone may traverse (named after the
 * installation) and a cluster directory owned by the server's user (named after DATA_DIR), and records both in DATA_DIR (PLACEMENT_RECORD), so that
 * every later start (and the demo, migrate, keys) finds the same cluster, and a backup of DATA_DIR says
 * where the data is. It never changes the permissions of a directory it did not create.
 */
export const PLACEMENT_ROOT = '/var/lib/risk-assurance';
export const PLACEMENT_RECORD = 'embedded-server.json';

export interface Placement {
  layout: ClusterLayout;
  binaries: PostgresBinaries;
}

interface PlacementRecord {
  /** The cluster directory, when it is not DATA_DIR/postgres. */
  cluster?: string;
  /** The copy of the PostgreSQL programs (bin/, lib/, share/), when the installed ones are out of reach. */
  programs?: string;
}

/**
 * The layout and programs the server's user can reach, placing them under `root` when needed (see above);
 * `log` is told once, when a placement is made. Ordinary users (the server runs as themselves) and
 * reachable clones are left as they are.
 */
export function placeServer(
  dataDir: string,
  installed: PostgresBinaries,
  user: ServerUser,
  log: (message: string) => void = () => undefined,
  root = PLACEMENT_ROOT,
): Placement {
  const layout = clusterLayout(dataDir);
  if (user.uid === undefined) return { layout, binaries: installed };
  mkdirSync(layout.dataDir, { recursive: true });
  const recordPath = join(layout.dataDir, PLACEMENT_RECORD);
  const record = readRecord(recordPath);
  const place = join(root, placeName(layout.dataDir));
  const reasons: string[] = [];

  if (record.cluster === undefined && !clusterReachable(layout, user)) {
    reasons.push(unreachable(user, layout.dataDir));
    record.cluster = join(place, 'cluster');
  }
  if (record.programs === undefined && !serverUserCan(user, '-x', installed.postgres)) {
    reasons.push(unreachable(user, installed.postgres));
    // One copy per installation, whichever DATA_DIR (or memory:// run) uses it.
    record.programs = join(root, `programs-${placeName(installation(installed))}`);
  }
  if (record.programs !== undefined) copyPrograms(installed, record.programs, root);
  if (record.cluster !== undefined) createOwnDir(dirname(record.cluster), root);
  if (reasons.length > 0) {
    writeFileSync(recordPath, `${JSON.stringify(record, null, 2)}\n`);
    log(
      `The user "${user.name}", which runs the embedded PostgreSQL server, cannot reach ${reasons.join(' nor ')}: so the server keeps ` +
        [record.cluster !== undefined ? `its cluster in ${record.cluster}` : null, record.programs !== undefined ? `a copy of its programs in ${record.programs}` : null]
          .filter((part) => part !== null)
          .join(' and ') +
        ` (recorded in ${recordPath}).`,
    );
  }
  return {
    layout: record.cluster === undefined ? layout : { ...layout, clusterDir: record.cluster, socketDir: join(dirname(record.cluster), 'run'), logFile: join(record.cluster, 'server.log') },
    binaries: record.programs === undefined ? installed : programsIn(installed, record.programs),
  };
}

function readRecord(path: string): PlacementRecord {
  if (!existsSync(path)) return {};
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as PlacementRecord;
    return { ...(typeof parsed.cluster === 'string' ? { cluster: parsed.cluster } : {}), ...(typeof parsed.programs === 'string' ? { programs: parsed.programs } : {}) };
  } catch (error) {
    throw new PlacementError(`${path} cannot be read (${(error as Error).message}). Restore it from a backup: it says where the embedded server's cluster is.`);
  }
}

/**
 * DATA_DIR/postgres serves when its user may enter DATA_DIR (a new cluster). An existing cluster there is
 * never replaced by an empty one elsewhere: when it is out of reach, the start is refused with the fix.
 */
function clusterReachable(layout: ClusterLayout, user: ServerUser): boolean {
  if (isInitialised(layout)) {
    if (serverUserCan(user, '-x', layout.clusterDir)) return true;
    const blocked = firstUnreachableAncestor(user, layout.clusterDir);
    throw new PlacementError(
      `${layout.clusterDir} holds a cluster that the user "${user.name}", which runs the embedded PostgreSQL server, cannot reach` +
        (blocked === null ? '' : `: let it through with \`chmod o+x ${blocked}\``) +
        `, or move ${layout.clusterDir} to a directory it can reach and name that directory's parent in DATA_DIR.`,
    );
  }
  return serverUserCan(user, '-x', layout.dataDir) && serverUserCan(user, '-x', dirname(layout.socketDir));
}

/** `path (it may not enter /root, mode 0700)`. */
function unreachable(user: ServerUser, path: string): string {
  const blocked = firstUnreachableAncestor(user, path);
  return blocked === null ? path : `${path} (it may not enter ${blocked}, mode ${(statSync(blocked).mode & 0o777).toString(8).padStart(4, '0')})`;
}

/** `root-risk-data-3f2a9c1b7e00`: readable, unique per DATA_DIR, short enough for a socket path. */
export function placeName(dataDir: string): string {
  const slug = dataDir.replace(/[^A-Za-z0-9]+/g, '-').slice(-40).replace(/^-+|-+$/g, '') || 'data';
  return `${slug}-${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`;
}

/**
 * Creates `dir` and its missing parents up to `root` with mode 0755 (root-owned, anyone may traverse),
 * and checks that existing ones, which it leaves alone, let everyone through.
 */
function createOwnDir(dir: string, root: string): void {
  const missing: string[] = [];
  for (let current = dir; !existsSync(current); current = dirname(current)) missing.push(current);
  try {
    mkdirSync(dir, { recursive: true });
    // Whatever the umask: the directories made here are the service's own, and must let the server user through.
    for (const created of missing) chmodSync(created, 0o755);
  } catch (error) {
    throw new PlacementError(
      `${dir} cannot be created (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}), and the server's user needs a place it can reach. ` +
        `Set DATA_DIR to a directory that user can reach (for example DATA_DIR=/var/lib/risk-assurance/data, or a directory under /tmp), ` +
        'or set DATABASE_URL to a PostgreSQL server.',
    );
  }
  for (let current = dir; current !== dirname(root) && current !== dirname(current); current = dirname(current)) {
    if ((statSync(current).mode & 0o005) !== 0o005) {
      throw new PlacementError(
        `${current} exists but does not let other users through (mode ${(statSync(current).mode & 0o777).toString(8).padStart(4, '0')}); it was not made by the service, ` +
          `which leaves it as it is. Let the server's user through (chmod o+rx ${current}), or set DATA_DIR to a directory that user can reach.`,
      );
    }
  }
}

/** The same programs, found at the same places inside the copy. */
function programsIn(installed: PostgresBinaries, programs: string): PostgresBinaries {
  const native = nativeDir(installed);
  const moved = (path: string) => join(programs, relative(native, path));
  return { initdb: moved(installed.initdb), pg_ctl: moved(installed.pg_ctl), postgres: moved(installed.postgres) };
}

/** bin/, lib/ and share/ of the registry package: the programs find their libraries relative to bin/. */
const nativeDir = (installed: PostgresBinaries) => dirname(dirname(installed.postgres));

/** The directory the service is installed in (the one holding node_modules/), which names the copy. */
function installation(installed: PostgresBinaries): string {
  const native = nativeDir(installed);
  const at = native.lastIndexOf('/node_modules/');
  return at === -1 ? native : native.slice(0, at);
}

/** Copies the programs when the copy is missing or was made from other ones (an upgraded package). */
function copyPrograms(installed: PostgresBinaries, programs: string, root: string): void {
  const native = nativeDir(installed);
  const source = statSync(installed.postgres);
  const stamp = `${native}\n${source.size}:${Math.trunc(source.mtimeMs)}\n`;
  const stampFile = join(programs, '.copied-from');
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return;
  createOwnDir(dirname(programs), root);
  // Copied aside, then renamed into place: a start that stops half-way never leaves half a copy in use.
  const partial = `${programs}.partial-${process.pid}`;
  try {
    rmSync(partial, { recursive: true, force: true });
    cpSync(native, partial, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    writeFileSync(join(partial, '.copied-from'), stamp);
    rmSync(programs, { recursive: true, force: true });
    renameSync(partial, programs);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw new PlacementError(
      `the PostgreSQL programs cannot be copied to ${programs} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). ` +
        'Set DATA_DIR to a directory the server user can reach, install the service where that user can read it, or set DATABASE_URL to a PostgreSQL server.',
    );
  }
}
