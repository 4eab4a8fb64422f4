import { describe, expect, it } from 'vitest';
import { MAX_WRITE_ATTEMPTS, createAlertQueue } from './alert-queue.js';
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

  it('one alert the database refuses does not block the others, and is dropped after a few tries (never retried forever)', async () => {
    const written: string[] = [];
    const attempts = new Map<string, number>();
    const errors: object[] = [];
    const queue = createAlertQueue(
      async (a) => {
        attempts.set(a.cause, (attempts.get(a.cause) ?? 0) + 1);
        // A refusal of the data (as an over-long index row was: SQLSTATE 54000), not an outage.
        if (a.cause === 'poison') throw Object.assign(new Error('index row size exceeds maximum'), { code: '54000' });
        written.push(a.cause);
      },
      { warn: () => undefined, error: (obj) => errors.push(obj) },
    );
    queue.enqueue(alert('poison'));
    queue.enqueue(alert('after'));
    await queue.drain();
    expect(written).toEqual(['after']);
    for (let round = 0; round < 5; round += 1) {
      queue.newRound();
      queue.enqueue(alert(`next-${round}`));
      await queue.drain();
    }
    expect(written).toEqual(['after', 'next-0', 'next-1', 'next-2', 'next-3', 'next-4']);
    expect(attempts.get('poison')).toBe(MAX_WRITE_ATTEMPTS);
    expect(errors).toHaveLength(1);
  });

  it('keeps what could not be written and writes it once the database answers again', async () => {
    let down = true;
    const written: string[] = [];
    const queue = createAlertQueue(async (a) => {
      if (down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
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
