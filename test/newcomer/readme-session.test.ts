import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_LEGAL_ENTITIES, DEMO_MEMBERS } from '../../src/demo/demo-data.js';
import { DEMO_BRAS } from '../../src/demo/steps/bras.step.js';
import { shellBlocks, sessionScript } from './markdown.js';
import { cleanEnv, freePort, run, start, tempDir, waitForHttp } from './processes.js';

/** The address the README's commands use; the test runs them against a service on a free port instead. */
const README_BASE_URL = 'http://127.0.0.1:3000';
const SESSION_TIMEOUT_MS = 600_000;

const clientAdmin = DEMO_MEMBERS.find((person) => person.role === 'admin')!;

describe('the README first session works verbatim (issue: a newcomer reaches a first real call without reading code)', () => {
  const dataDir = tempDir('readme-session');
  afterAll(() => dataDir.remove());

  it('runs every sh block of "## First session", in one shell, from the start command to the catalogue', async () => {
    const blocks = shellBlocks(readFileSync('README.md', 'utf8'), 'First session');
    const code = blocks.map((block) => block.code).join('\n');
    // The path the issue asks for: start, sign in, the legal entities, the catalogue.
    expect(code).toContain('npm start');
    expect(code).toContain('/auth/v1/token?grant_type=password');
    expect(code).toContain('/api/v1/legal-entities');
    expect(code).toContain('/api/v1/risk-scenarios');
    expect(code).toContain('/api/v1/bras');
    expect(code).toContain(README_BASE_URL);

    const port = await freePort();
    const script = sessionScript(blocks, (block) => block.replaceAll(README_BASE_URL, `http://127.0.0.1:${port}`));
    const result = await run('bash', ['-c', script], cleanEnv({ PORT: String(port), DATA_DIR: dataDir.path }), SESSION_TIMEOUT_MS);
    const output = result.stdout + result.stderr;
    expect(result.timedOut, output).toBe(false);
    expect(result.code, output).toBe(0);
    for (const [index, block] of blocks.entries()) expect(output).toContain(`== step ${index + 1}: ${block.title}`);
    // /me names the client admin; the lists carry the demo's entities and the starter catalogue.
    expect(output).toContain(`"email": "${clientAdmin.email}"`);
    expect(output).toContain('"role": "admin"');
    for (const entity of DEMO_LEGAL_ENTITIES) expect(output).toContain(`"name": "${entity.name}"`);
    expect(output).toMatch(/"category": "[^"]+"/);
    expect(output).toMatch(/"total": (1[4-9]|[2-9]\d)/);
    // The first BRA: created as a draft, then listed beside the demo's.
    expect(output).toMatch(/"name": "My first assessment \d+"/);
    expect(output).toContain('"status": "draft"');
    // What the README says the list shows: every BRA, the demo's in each of their states, one line each.
    expect(output).toMatch(/^draft\s+My first assessment \d+$/m);
    for (const bra of DEMO_BRAS) expect(output).toMatch(new RegExp(`^${bra.outcome}\\s+${bra.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    // The last step: the diff of the rolled-forward demo BRA against the approval it started from.
    expect(output).toMatch(/"kind": "current"/);
    expect(output).toMatch(/"rating_type": "residual"/);
    // The start-up banner reached the newcomer's terminal.
    expect(output).toContain(`listening on http://127.0.0.1:${port}`);
    // The last step stopped the service.
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  });
});

describe('the guide\'s walk-through from a super admin to a client admin works verbatim (issue: the two traps spelled out)', () => {
  const dataDir = tempDir('guide-session');
  afterAll(() => dataDir.remove());

  it('runs every sh block of "## From a super admin to a client admin" in one shell', async () => {
    const blocks = shellBlocks(readFileSync('docs/guide.md', 'utf8'), 'From a super admin to a client admin');
    const code = blocks.map((block) => block.code).join('\n');
    expect(code).toContain('BOOTSTRAP_SUPER_ADMIN_EMAIL');
    expect(code).toContain('/auth/v1/admin/users/$ADMIN_USER_ID');
    const port = await freePort();
    const script = sessionScript(blocks, (block) => block.replaceAll(README_BASE_URL, `http://127.0.0.1:${port}`));
    const result = await run('bash', ['-c', script], cleanEnv({ PORT: String(port), DATA_DIR: dataDir.path }), SESSION_TIMEOUT_MS);
    const output = result.stdout + result.stderr;
    expect(result.timedOut, output).toBe(false);
    expect(result.code, output).toBe(0);
    // The password call answered the user, the client admin built its entity, and the catalogue was seeded.
    expect(output).toContain('ada@northwind.example');
    expect(output).toContain('Retail Banking');
    expect(output).toContain('Northwind Bank plc');
    expect(output).toMatch(/^(1[4-9]|[2-9]\d)$/m);
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  });
});

describe('npm run demo prints ready-to-run commands (issue: the same kind of commands as the README)', () => {
  const dataDir = tempDir('demo-commands');
  afterAll(() => dataDir.remove());

  it('the commands it prints sign in as the client admin and list the entities and the catalogue', async () => {
    const port = await freePort();
    const env = cleanEnv({ PORT: String(port), DATA_DIR: dataDir.path, LOG_LEVEL: 'warn' });
    const demo = await run('node', ['dist/demo.js'], env, SESSION_TIMEOUT_MS);
    expect(demo.code, demo.stdout + demo.stderr).toBe(0);
    const commands = printedCommands(demo.stdout);
    expect(commands).toContain(`API='http://127.0.0.1:${port}'`);

    const service = start('node', ['dist/main.js'], env);
    try {
      await waitForHttp(`http://127.0.0.1:${port}/health`, service, SESSION_TIMEOUT_MS);
      const session = await run('bash', ['-c', `set -euo pipefail\n${commands}`], env, 120_000);
      const output = session.stdout + session.stderr;
      expect(session.code, output).toBe(0);
      expect(output).toContain(`"email": "${clientAdmin.email}"`);
      for (const entity of DEMO_LEGAL_ENTITIES) expect(output).toContain(`"name": "${entity.name}"`);
      expect(output).toMatch(/"category": "[^"]+"/);
    } finally {
      service.kill();
      await service.finished;
    }
  });
});

/** The indented lines under "Try it:" in the demo's report. */
function printedCommands(report: string): string {
  const lines = report.split('\n');
  const from = lines.findIndex((line) => line.startsWith('Try it:'));
  expect(from, report).toBeGreaterThan(-1);
  const commands: string[] = [];
  for (const line of lines.slice(from + 1)) {
    if (line.startsWith('  ')) commands.push(line.slice(2));
    else if (commands.length > 0) break;
  }
  return commands.join('\n');
}
