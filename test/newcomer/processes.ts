import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A port nothing listens on right now (the system picks it; a race with another process is unlikely). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/**
 * A temporary DATA_DIR. mkdtemp makes it 0700; the embedded server runs as the user `postgres` when the
 * tests run as root, so it is opened to it. remove() first waits for an embedded server still stopping.
 */
export function tempDir(prefix: string): { path: string; remove(): Promise<void> } {
  const path = mkdtempSync(join(tmpdir(), `${prefix}-`));
  chmodSync(path, 0o755);
  return {
    path,
    async remove() {
      for (let i = 0; i < 120 && existsSync(join(path, 'postgres', 'postmaster.pid')); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      rmSync(path, { recursive: true, force: true });
    },
  };
}

/**
 * The environment a newcomer's shell would have: this process's, without the service's own variables
 * (a developer's DATABASE_URL or AUTH_* must not leak into what the test starts), plus `extra`.
 */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  const own = /^(PORT|HOST|PUBLIC_URL|DATABASE_URL|DATA_DIR|REDIS_URL|RATE_LIMIT_.*|AUTH_.*|BOOTSTRAP_.*|LOG_LEVEL|PRICE_.*|TEST_.*|VITEST.*|NODE_ENV)$/;
  for (const [name, value] of Object.entries(process.env)) if (!own.test(name)) env[name] = value;
  return { ...env, ...extra };
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Running {
  pid: number;
  output(): string;
  finished: Promise<Finished>;
  /** Signals the whole process group (the command and whatever it started). */
  kill(signal?: NodeJS.Signals): void;
}

/** Runs a command in its own process group, from the repository root unless told another directory. */
export function start(command: string, args: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): Running {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const finished = new Promise<Finished>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return {
    pid: child.pid as number,
    output: () => stdout + stderr,
    finished,
    kill(signal = 'SIGTERM') {
      try {
        process.kill(-(child.pid as number), signal);
      } catch {
        // The group is already gone.
      }
    },
  };
}

/** Runs to the end, or kills the group after timeoutMs; leaves nothing running behind either way. */
export async function run(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number, cwd = process.cwd()): Promise<Finished & { timedOut: boolean }> {
  const running = start(command, args, env, cwd);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    running.kill('SIGKILL');
  }, timeoutMs);
  const result = await running.finished;
  clearTimeout(timer);
  running.kill('SIGTERM');
  return { ...result, timedOut };
}

/** Resolves when GET url answers 200, or rejects when the process ends first or the time is up. */
export async function waitForHttp(url: string, running: Running, timeoutMs: number): Promise<void> {
  let ended = false;
  void running.finished.then(() => (ended = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (ended) throw new Error(`the process ended before ${url} answered:\n${running.output()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${running.output()}`);
}
