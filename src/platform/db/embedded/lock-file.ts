import { mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from './cluster.js';

/** A lock left by a process that still seems alive this long ago is taken over (its pid was reused). */
const STALE_AFTER_MS = 5 * 60_000;
const WAIT_MS = 180_000;

/**
 * Runs `work` while holding an exclusive lock file (O_EXCL create, holding our pid). Processes sharing one
 * DATA_DIR serialise starting, joining and stopping the server through it; a lock whose holder died
 * (kill -9) is taken over at once.
 */
export async function withLockFile<T>(path: string, work: () => Promise<T>): Promise<T> {
  mkdirSync(dirname(path), { recursive: true });
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    if (tryCreate(path)) break;
    if (isStale(path)) {
      try {
        unlinkSync(path);
      } catch {
        // Another process removed it first; try again.
      }
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${path}: another process is starting or stopping the embedded server.`);
    }
    await sleep(50);
  }
  try {
    return await work();
  } finally {
    try {
      unlinkSync(path);
    } catch {
      // Already gone (taken over as stale): nothing to release.
    }
  }
}

function tryCreate(path: string): boolean {
  try {
    const fd = openSync(path, 'wx', 0o644);
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function isStale(path: string): boolean {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    const age = Date.now() - statSync(path).mtimeMs;
    // An empty file is a holder between create and write: give it a moment.
    if (!Number.isInteger(pid) || pid <= 0) return age > 5_000;
    return !isAlive(pid) || age > STALE_AFTER_MS;
  } catch {
    return false;
  }
}
