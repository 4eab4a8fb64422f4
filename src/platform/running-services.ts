import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What a running service accepts, recorded under DATA_DIR (one file per process, removed when it stops):
 * its address and the public `apikey` it takes. `npm run demo` prints these, so that the commands it
 * prints work against the service that runs, whatever an earlier shell exported (a key chosen in a shell
 * that is gone is not the key a restart from a new shell accepts). The apikey is the public client key:
 * it identifies the client application and grants nothing by itself; the file is still private (0600).
 */
export interface RunningService {
  pid: number;
  base_url: string;
  anon_key: string | null;
}

const directory = (dataDir: string) => join(dataDir, 'services');

export function recordRunningService(dataDir: string, service: Omit<RunningService, 'pid'>): () => void {
  const file = join(directory(dataDir), `${process.pid}.json`);
  mkdirSync(directory(dataDir), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify({ pid: process.pid, ...service })}\n`, { mode: 0o600 });
  return () => rmSync(file, { force: true });
}

/** A service running on this DATA_DIR now (the newest one), or null; records of dead processes are ignored. */
export function findRunningService(dataDir: string): RunningService | null {
  let names: string[];
  try {
    names = readdirSync(directory(dataDir)).filter((name) => name.endsWith('.json'));
  } catch {
    return null;
  }
  const alive = names
    .map((name) => {
      try {
        return JSON.parse(readFileSync(join(directory(dataDir), name), 'utf8')) as RunningService;
      } catch {
        return null;
      }
    })
    .filter((service): service is RunningService => service !== null && isRunning(service.pid));
  return alive.at(-1) ?? null;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
