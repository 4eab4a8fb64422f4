import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import Fastify from 'fastify';
import { AccessLogController, RequestLogger, loggerOptions, perTurn, readable } from './logging.js';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  return { stream, lines };
}

describe("a request's logger (decisions.md, Platform: one access line per request)", () => {
  it('builds its child only when a line is written, and writes the lines the child would', () => {
    const { stream, lines } = capture();
    const { stream: _standardOutput, ...options } = loggerOptions('info') as pino.LoggerOptions & { stream: unknown };
    const root = pino(options, stream);
    const child = vi.spyOn(root, 'child');
    const log = new RequestLogger(root, { reqId: 'req-1' }, {});
    expect(child).not.toHaveBeenCalled();

    log.info({ password: 'never-logged', user: { token: 'never-logged' }, kept: 1 }, 'a handler line');
    log.error({ err: new Error('boom') }, 'a failure');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map((line) => [line['reqId'], line['msg']])).toEqual([
      ['req-1', 'a handler line'],
      ['req-1', 'a failure'],
    ]);
    // The root's redaction still holds on the request's lines.
    expect(JSON.stringify(lines)).not.toContain('never-logged');
    expect(lines[0]?.['kept']).toBe(1);
    expect(log.level).toBe('info');
  });
});

describe('standard output (decisions.md, Platform: logs)', () => {
  it('writes the lines of one turn of the event loop in one write, at its end', async () => {
    const writes: string[] = [];
    const lines = perTurn({ write: (chunk: string) => void writes.push(chunk) });
    lines.write('{"n":1}\n');
    lines.write('{"n":2}\n');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n']);
    lines.write('{"n":3}\n');
    await nextTurn();
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n', '{"n":3}\n']);
  });

  it('writes what waits when the process exits, a crash included', () => {
    for (const ending of ['process.exit(0)', "throw new Error('crash')"]) {
      const script = `import { logDestination } from './src/platform/http/logging.ts';
        const out = logDestination(); out.write('one\\n'); out.write('two\\n'); ${ending};`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
      expect(child.stdout, child.stderr).toBe('one\ntwo\n');
    }
  });
});

describe('on a terminal the service reads like a tool (decisions.md, First run)', () => {
  it('writes each JSON line as pino-pretty formats it: time, level, message, no JSON', () => {
    const writes: string[] = [];
    const out = readable({ write: (chunk: string) => void writes.push(chunk) }, false);
    out.write(`{"level":30,"time":${Date.now()},"pid":1,"hostname":"h","msg":"stopped in 12 ms"}\n{"level":40,"time":${Date.now()},"msg":"careful"}\n`);
    expect(writes).toHaveLength(1);
    const text = writes[0] as string;
    expect(text).toMatch(/INFO.*stopped in 12 ms\n/);
    expect(text).toMatch(/WARN.*careful\n/);
    expect(text).not.toContain('{"level"');
  });

  it('chooses by standard output: readable lines on a terminal, JSON lines through a pipe', () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-output-'));
    const file = join(dir, 'write-one-line.ts');
    writeFileSync(file, `import { logDestination } from '${resolve('src/platform/http/logging.ts')}';\nlogDestination().write('{"level":30,"time":0,"msg":"hello"}\\n');\n`);
    const command = `${process.execPath} --import tsx ${file}`;
    const piped = spawnSync('sh', ['-c', command], { encoding: 'utf8' });
    expect(piped.stdout).toBe('{"level":30,"time":0,"msg":"hello"}\n');
    // `script` gives the command a terminal of its own and copies what it shows.
    const onTerminal = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8' });
    expect(onTerminal.stdout).toContain('INFO');
    expect(onTerminal.stdout).toContain('hello');
    expect(onTerminal.stdout).not.toContain('{"level"');
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes health checks at debug, other requests at info', async () => {
    const { stream, lines } = capture();
    const app = Fastify({ logger: { level: 'info', stream }, logController: new AccessLogController(stream) });
    app.get('/health', { config: { accessLogLevel: 'debug' } }, async () => ({ status: 'ok' }));
    app.get('/other', async () => ({ ok: true }));
    await app.inject('/health');
    await app.inject('/other');
    app.log.level = 'debug';
    await app.inject('/health');
    await app.close();
    const access = lines.filter((line) => line['msg'] === 'request completed').map((line) => [(line['req'] as { path: string }).path, line['level']]);
    expect(access).toEqual([
      ['/other', 30],
      ['/health', 20],
    ]);
  });
});
