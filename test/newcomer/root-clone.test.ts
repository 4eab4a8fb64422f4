import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PLACEMENT_RECORD } from '../../src/platform/db/embedded/server-placement.js';
import { cloneInto } from './clone.js';
import { cleanEnv, freePort, start, waitForHttp, type Running } from './processes.js';

/** The README's start command: the first line of its first `sh` block, without the comment. */
function readmeStartCommand(): string {
  const block = /```sh\n([^\n]*)/.exec(readFileSync('README.md', 'utf8'));
  return (block?.[1] ?? '').replace(/#.*$/, '').trim();
}

const asRoot = process.getuid?.() === 0;

describe('the README start works wherever a person clones it', () => {
  // A home like root's: mode 0700, which the server's user `postgres` may not enter.
  const home = mkdtempSync(join(tmpdir(), 'root-home-'));
  const clone = join(home, 'risk-assurance-service');
  const recordPath = join(clone, 'data', PLACEMENT_RECORD);
  afterAll(() => {
    // What the service placed for this clone goes with it.
    if (existsSync(recordPath)) {
      const record = JSON.parse(readFileSync(recordPath, 'utf8')) as { cluster?: string; programs?: string };
      if (record.cluster !== undefined) rmSync(dirname(record.cluster), { recursive: true, force: true });
      if (record.programs !== undefined) rmSync(record.programs, { recursive: true, force: true });
    }
    rmSync(home, { recursive: true, force: true });
  });

  it.runIf(asRoot)('as root, in a 0700 home: `npm ci && npm start` serves /health with no chmod by hand, and a second start finds the same cluster', async () => {
    expect(statSync(home).mode & 0o777).toBe(0o700);
    cloneInto(clone);
    const command = readmeStartCommand();
    expect(command).toBe('npm ci && npm start');

    const port = await freePort();
    const env = cleanEnv({ PORT: String(port) });
    // SIGTERM to the group (sh, npm, the service): the service stops cleanly and says so.
    const stop = async (service: Running) => {
      service.kill('SIGTERM');
      await service.finished;
      expect(service.output()).toMatch(/stopped in \d+ ms/);
    };
    const first = start('sh', ['-c', command], env, clone);
    try {
      await waitForHttp(`http://127.0.0.1:${port}/health`, first, 600_000);
    } finally {
      await stop(first);
    }
    const output = first.output();
    // One line says what was placed where, and why.
    expect(output).toContain(`The user "postgres", which runs the embedded PostgreSQL server, cannot reach ${join(clone, 'data')} (it may not enter ${home}, mode 0700)`);
    expect(output).toContain(`recorded in ${recordPath}`);
    const record = JSON.parse(readFileSync(recordPath, 'utf8')) as { cluster: string; programs: string };
    expect(existsSync(join(record.cluster, 'PG_VERSION'))).toBe(true);
    // Nothing was opened up: the home and the clone keep their modes.
    expect(statSync(home).mode & 0o777).toBe(0o700);

    const second = start('npm', ['start'], env, clone);
    try {
      await waitForHttp(`http://127.0.0.1:${port}/health`, second, 120_000);
    } finally {
      await stop(second);
    }
    expect(second.output()).not.toContain('Initialising the embedded PostgreSQL server');
    expect(second.output()).not.toContain('cannot reach');
    expect(JSON.parse(readFileSync(recordPath, 'utf8'))).toEqual(record);
  });

  // The README's test command in the same clone (installed by the start above), narrowed to the suite whose
  // servers are started, stopped and restarted by the test itself: none of it may run a program of the
  // installation as the server's user, who cannot enter this home.
  it.runIf(asRoot)('as root, in the same 0700 home: the README\'s test command passes the embedded server\'s own suite', async () => {
    const suite = start('npm', ['test', '--', 'test/engine/embedded-server.test.ts'], cleanEnv({}), clone);
    const { code } = await suite.finished;
    const output = suite.output().replace(/\x1b\[[0-9;]*m/g, '');
    expect(output).not.toContain('EACCES');
    expect(output).toMatch(/Tests\s+\d+ passed/);
    expect(code).toBe(0);
  }, 600_000);
});
