import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The built service as users run it (`node dist/main.js`, `node dist/demo.js`), for the tests that need
 * real processes: several on one DATA_DIR, or one killed with SIGKILL.
 */

function newestMtime(dir: string, skip: (name: string) => boolean): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skip(entry.name)) continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path, skip) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Runs `npm run build` when dist/ is missing or older than a source file (CI builds before the suite). */
export function ensureBuilt(): void {
  const built = existsSync('dist/main.js') && existsSync('dist/demo.js') ? statSync('dist/main.js').mtimeMs : 0;
  if (built >= newestMtime('src', (name) => name.endsWith('.test.ts'))) return;
  const result = spawnSync('npm', ['run', 'build'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm run build failed:\n${result.stdout}\n${result.stderr}`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  output(): string;
  /** SIGTERM, then the exit code once it has shut down. */
  stop(): Promise<number | null>;
  /** SIGKILL: no shutdown at all. */
  kill(): Promise<void>;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

export async function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['dist/main.js'], {
    // PUBLIC_URL: the instance's own address, unless the caller names a shared one (instances behind one balancer).
    env: { ...process.env, LOG_LEVEL: 'warn', PUBLIC_URL: baseUrl, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The service exited with ${child.exitCode} before serving:\n${output}`);
    const health = await fetch(`${baseUrl}/health`).catch(() => null);
    if (health?.status === 200) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The service did not serve /health within 90 s:\n${output}`);
    }
    await sleep(100);
  }
  return {
    child,
    baseUrl,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      return exited(child);
    },
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
  };
}

/** Runs `node dist/<script>` to its end. */
export async function runScript(script: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [`dist/${script}`], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await exited(child);
  return { code, output };
}

/** The postmasters running on a cluster directory (Linux: read from /proc). */
export function postmastersOf(clusterDir: string): number[] {
  if (!existsSync('/proc/self/cmdline')) return [];
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (argv[0]?.endsWith('/postgres') && argv.includes(clusterDir)) pids.push(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return pids;
}
