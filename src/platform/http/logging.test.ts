import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { RequestLogger, loggerOptions, perTurn } from './logging.js';

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
