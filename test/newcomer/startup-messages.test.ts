import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { joinEmbeddedServer, type EmbeddedServer } from '../../src/platform/db/embedded/embedded-server.js';
import { PLACEMENT_RECORD } from '../../src/platform/db/embedded/server-placement.js';
import { CONFIG_ERROR_EXIT_CODE, runStartupChecks } from '../../src/platform/startup-checks.js';
import { cloneInto } from './clone.js';
import { cleanEnv, freePort, run, tempDir } from './processes.js';

const TIMEOUT_MS = 120_000;
const asRoot = process.getuid?.() === 0;

/** The rows of the guide's table of start-up messages: the message's start, as a pattern, and the cell's text. */
function guideRows(): Array<{ cell: string; pattern: RegExp }> {
  const guide = readFileSync('docs/guide.md', 'utf8');
  const table = guide.slice(guide.indexOf('| Message starts with |'));
  const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
  return rows.map((row) => {
    const cell = (row.split('|')[1] ?? '').trim().replace(/^`|`$/g, '');
    const source = cell
      .replace(/[.*+?^${}()[\]\\]/g, '\\$&')
      .replaceAll('…', '.*?')
      .replaceAll('host:port', '\\S+')
      .replaceAll('"x"', '"[^"]*"')
      .replaceAll('NAME', '[A-Z_]+')
      .replace(/PostgreSQL N$/, 'PostgreSQL \\d+');
    return { cell, pattern: new RegExp(`^${source}`) };
  });
}

/** Rows no process here can provoke, and where each is checked instead. */
const NOT_PROVOKED: Record<string, string> = {
  'DATABASE_URL: no answer from host:port': 'needs an address that swallows packets',
  'DATABASE_URL: the server at host:port runs PostgreSQL N': 'needs a server older than 15',
  'DATA_DIR: … cannot be created': 'test/engine/server-placement.test.ts (a place under a file)',
  'DATA_DIR: … exists but does not let other users through': 'test/engine/server-placement.test.ts',
  'DATA_DIR: the PostgreSQL programs cannot be copied to …': 'needs a full or read-only disk',
  'DATA_DIR: The embedded PostgreSQL server cannot run as root and the user "postgres" could not be created': 'needs a system where useradd fails',
  'DATA_DIR: The embedded PostgreSQL server has no binaries for …': 'needs a platform without a PostgreSQL package',
  'REDIS_URL: Redis at host:port refused the credentials': 'needs a Redis with a password',
  'REDIS_URL: cannot use Redis at host:port': 'needs a misbehaving Redis',
};

describe("every start-up refusal exits with 78 and is in the guide's table (decisions.md, First run)", () => {
  const work = tempDir('startup-messages');
  let server: EmbeddedServer;
  beforeAll(async () => {
    server = await joinEmbeddedServer(join(work.path, 'server'), { ephemeral: true });
  }, TIMEOUT_MS);
  afterAll(async () => {
    await server?.release();
    await work.remove();
  });

  /** Each row's situation, made for real: the environment of `node dist/main.js`. */
  const scenarios: Record<string, () => Promise<Record<string, string>>> = {
    'Invalid configuration: NAME …': async () => ({ PORT: 'eighty' }),
    'DATABASE_URL: nothing accepts connections at host:port': async () => ({ DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/risk` }),
    'DATABASE_URL: the host of host:port is unknown': async () => ({ DATABASE_URL: 'postgres://postgres@no-such-host.invalid:5432/risk' }),
    'DATABASE_URL: the server at host:port has no database "x"': async () => ({ DATABASE_URL: server.url({ database: 'no_such_database' }) }),
    'DATABASE_URL: the server at host:port refused the credentials': async () => ({ DATABASE_URL: server.url({ role: 'no_such_role' }) }),
    'DATABASE_URL: cannot use the database at host:port': async () => ({ DATABASE_URL: `${server.url()}&options=${encodeURIComponent('-c nosuchsetting=1')}` }),
    "DATA_DIR: the embedded database's directory … cannot be created or written": async () => ({ DATA_DIR: '/etc/passwd/data' }),
    'DATA_DIR: … holds a cluster that the user "postgres", which runs the embedded PostgreSQL server, cannot reach': async () => ({ DATA_DIR: closedCluster() }),
    'DATA_DIR: …/embedded-server.json cannot be read': async () => {
      const dataDir = join(work.path, 'damaged-record');
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(join(dataDir, PLACEMENT_RECORD), '{ half a record');
      return { DATA_DIR: dataDir };
    },
    'DATA_DIR: …/audit-signing-key.pem is not an Ed25519 private key': async () => {
      const dataDir = join(work.path, 'damaged-key');
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(join(dataDir, 'audit-signing-key.pem'), 'not a key');
      return { DATA_DIR: dataDir };
    },
    'REDIS_URL: nothing accepts connections at host:port': async () => ({ DATABASE_URL: 'memory://', REDIS_URL: `redis://127.0.0.1:${await freePort()}` }),
  };

  /** A cluster made when its user could reach it, under a directory since closed (mode 0700). */
  const closedCluster = () => {
    const closed = join(work.path, 'closed-home');
    mkdirSync(join(closed, 'data', 'postgres'), { recursive: true });
    writeFileSync(join(closed, 'data', 'postgres', 'PG_VERSION'), '18\n');
    chmodSync(closed, 0o700);
    return join(closed, 'data');
  };

  it('every row is provoked here or names where it is checked, and every provoked refusal is a row', () => {
    const cells = guideRows().map((row) => row.cell);
    expect(cells.filter((cell) => scenarios[cell] === undefined && NOT_PROVOKED[cell] === undefined)).toEqual([]);
    expect([...Object.keys(scenarios), ...Object.keys(NOT_PROVOKED)].filter((cell) => !cells.includes(cell))).toEqual([]);
  });

  for (const row of guideRows()) {
    if (scenarios[row.cell] === undefined) continue;
    const rootOnly = row.cell.includes('"postgres"');
    it.runIf(!rootOnly || asRoot)(`${row.cell}: exit 78, the message as the guide says`, async () => {
      const env = await (scenarios[row.cell] as () => Promise<Record<string, string>>)();
      const result = await run('node', ['dist/main.js'], cleanEnv({ PORT: String(await freePort()), ...env }), TIMEOUT_MS);
      expect(result.code, result.stdout + result.stderr).toBe(CONFIG_ERROR_EXIT_CODE);
      expect(result.stderr).toMatch(row.pattern);
    });
  }

  it.runIf(asRoot)('the advice for a cluster out of reach works: after `chmod o+x` on the directory named, the check passes', async () => {
    const dataDir = closedCluster();
    const refusal = await runStartupChecks(loadConfig({ DATA_DIR: dataDir }), 5_000, () => undefined).then(() => null, (error: Error) => error);
    const fix = /`chmod o\+x ([^`]+)`/.exec(refusal?.message ?? '');
    expect(fix?.[1]).toBe(dirname(dataDir));
    chmodSync(fix?.[1] as string, 0o711);
    await expect(runStartupChecks(loadConfig({ DATA_DIR: dataDir }), 5_000, () => undefined)).resolves.toBeUndefined();
  });

  it('`npm start` refuses before it builds: a clone with no build gets the refusal and no build', async () => {
    const clone = join(work.path, 'unbuilt-clone');
    cloneInto(clone);
    symlinkSync(join(process.cwd(), 'node_modules'), join(clone, 'node_modules'));
    for (const env of [{ PORT: 'eighty' }, { DATA_DIR: '/etc/passwd/data' }] as Array<Record<string, string>>) {
      const result = await run('npm', ['start'], cleanEnv(env), TIMEOUT_MS, clone);
      expect(result.code, result.stdout + result.stderr).toBe(CONFIG_ERROR_EXIT_CODE);
      expect(result.stdout).not.toContain('Building');
      expect(existsSync(join(clone, 'dist'))).toBe(false);
    }
  });
});
