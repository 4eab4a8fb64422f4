import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, freePort, run, start, tempDir, waitForHttp } from './processes.js';

const TIMEOUT_MS = 300_000;

describe('the demo beside a running service prints what that service accepts (decisions.md, First run)', () => {
  const dataDir = tempDir('demo-beside');
  afterAll(() => dataDir.remove());

  it('run from a new shell (without the key an earlier shell chose), its commands sign in at the running service', async () => {
    const port = await freePort();
    // The first shell chose its own client key and started the service with it.
    const chosen = `anon_${'k'.repeat(40)}`;
    const service = start('node', ['dist/main.js'], cleanEnv({ PORT: String(port), DATA_DIR: dataDir.path, AUTH_ANON_KEY: chosen }));
    try {
      await waitForHttp(`http://127.0.0.1:${port}/health`, service, TIMEOUT_MS);
      // A new shell: no AUTH_ANON_KEY, no PORT; the demo finds the service through DATA_DIR.
      const demo = await run('node', ['dist/demo.js'], cleanEnv({ DATA_DIR: dataDir.path }), TIMEOUT_MS);
      expect(demo.code, demo.stdout + demo.stderr).toBe(0);
      expect(demo.stdout).toContain(`APIKEY='${chosen}'`);
      expect(demo.stdout).toContain(`API='http://127.0.0.1:${port}'`);
      expect(demo.stdout).toContain(`the service runs at http://127.0.0.1:${port}`);
      const commands = demo.stdout
        .split('\n')
        .filter((line) => line.startsWith('  ') && /^ {2}(API=|APIKEY=|pretty\(\)|TOKEN=|curl )/.test(line))
        .map((line) => line.slice(2))
        .join('\n');
      const session = await run('bash', ['-ec', commands], cleanEnv({}), TIMEOUT_MS);
      expect(session.code, session.stdout + session.stderr).toBe(0);
      expect(session.stdout).toContain('"email": "olivia.bennett@harbourview-demo.example"');
    } finally {
      service.kill('SIGTERM');
      await service.finished;
    }
  });
});
