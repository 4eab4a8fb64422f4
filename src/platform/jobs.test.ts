import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { intervalJob, startJobs } from './jobs.js';

describe('intervalJob: a round every interval, never two at once, failures logged', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const silent = { error: vi.fn() };

  it('runs nothing until started, then a round at every interval', async () => {
    let rounds = 0;
    const job = intervalJob('test.tick', 1_000, silent, async () => {
      rounds += 1;
    });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(rounds).toBe(0);
    const stop = job.start();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(rounds).toBe(3);
    await stop();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(rounds).toBe(3);
  });

  it('skips the ticks that come while a round is under way, and stopping waits for that round', async () => {
    let started = 0;
    let finish: () => void = () => undefined;
    const job = intervalJob('test.slow', 1_000, silent, () => {
      started += 1;
      return new Promise<void>((resolve) => {
        finish = resolve;
      });
    });
    const stop = job.start();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(started).toBe(1);
    let stopped = false;
    const stopping = stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(stopped).toBe(true);
  });

  it('logs a failed round with the job name and tries again at the next tick', async () => {
    const log = { error: vi.fn() };
    let rounds = 0;
    const job = intervalJob('test.flaky', 1_000, log, async () => {
      rounds += 1;
      if (rounds === 1) throw new Error('database away');
    });
    const stop = job.start();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(rounds).toBe(2);
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error.mock.calls[0]![0]).toMatchObject({ job: 'test.flaky', err: expect.any(Error) });
    await stop();
  });

  it('startJobs starts every job and stops them all', async () => {
    const events: string[] = [];
    const job = (name: string) => ({
      name,
      start: () => {
        events.push(`${name} started`);
        return async () => {
          events.push(`${name} stopped`);
        };
      },
    });
    const stop = startJobs([job('a'), job('b')]);
    expect(events).toEqual(['a started', 'b started']);
    await stop();
    expect(events).toEqual(['a started', 'b started', 'a stopped', 'b stopped']);
  });
});
