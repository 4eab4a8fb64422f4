import { describe, expect, it } from 'vitest';
import { createAlertQueue } from './alert-queue.js';
import type { AlertInput } from './alert-raiser.js';

const alert = (cause: string, severity: AlertInput['severity'] = 'warning'): AlertInput => ({
  type: 'authentication',
  severity,
  title: 't',
  message: 'm',
  enterpriseId: null,
  cause,
});
const quiet = { warn: () => undefined };

describe('alert write queue', () => {
  it('writes an alert once per round however often it is reported', async () => {
    const written: string[] = [];
    const queue = createAlertQueue(async (a) => written.push(`${a.cause}/${a.severity}`), quiet);
    for (let i = 0; i < 100; i += 1) queue.enqueue(alert('x'));
    queue.enqueue(alert('x', 'error'));
    queue.enqueue(alert('y'));
    await queue.drain();
    expect(written).toEqual(['x/warning', 'x/error', 'y/warning']);
    queue.newRound();
    queue.enqueue(alert('x'));
    await queue.drain();
    expect(written).toEqual(['x/warning', 'x/error', 'y/warning', 'x/warning']);
  });

  it('keeps what could not be written and writes it once the database answers again', async () => {
    let down = true;
    const written: string[] = [];
    const queue = createAlertQueue(async (a) => {
      if (down) throw new Error('connection refused');
      written.push(a.cause);
    }, quiet);
    queue.enqueue(alert('outage'));
    queue.enqueue(alert('other'));
    await queue.drain();
    expect(written).toEqual([]);
    down = false;
    await queue.drain();
    expect(written).toEqual(['outage', 'other']);
    await queue.drain();
    expect(written).toEqual(['outage', 'other']);
  });
});
