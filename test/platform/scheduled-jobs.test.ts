import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intervalJob } from '../../src/platform/jobs.js';
import type { Database } from '../../src/platform/db/engine.js';
import { claimJobPeriod, periodStart } from '../../src/platform/scheduling/job-runs.js';
import { freshDatabase } from '../support/database.js';

/**
 * docs/scaling.md: a scan that several instances schedule runs once per period. Each round claims its
 * (job, period) row; the cluster suite (test/cluster) shows it across two processes.
 */
describe('scheduled jobs: once per period across the instances on a database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('gives a period to one claimant only, and the next period to the next', async () => {
    const at = Date.UTC(2026, 10, 28, 12, 0, 30);
    const claims = await Promise.all(Array.from({ length: 8 }, () => claimJobPeriod(database.db, 'test.scan', 60_000, at)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await claimJobPeriod(database.db, 'test.scan', 60_000, at + 29_000)).toBe(false);
    expect(await claimJobPeriod(database.db, 'test.scan', 60_000, at + 30_000)).toBe(true);
    expect(await claimJobPeriod(database.db, 'test.other', 60_000, at)).toBe(true);
    const rows = await database.db.selectFrom('scheduled_job_runs').select(['job', 'period_start']).where('job', '=', 'test.scan').orderBy('period_start').execute();
    expect(rows.map((row) => row.period_start.toISOString())).toEqual([
      periodStart(at, 60_000).toISOString(),
      periodStart(at + 30_000, 60_000).toISOString(),
    ]);
  });

  it('forgets the claims of a day ago', async () => {
    const at = Date.UTC(2026, 10, 29, 12, 0, 0);
    await claimJobPeriod(database.db, 'test.old', 1_000, at - 2 * 24 * 3_600_000);
    await claimJobPeriod(database.db, 'test.old', 1_000, at);
    const rows = await database.db.selectFrom('scheduled_job_runs').select('period_start').where('job', '=', 'test.old').execute();
    expect(rows).toHaveLength(1);
  });

  it('runs a shared interval job on one of two schedulers per period', async () => {
    let rounds = 0;
    const job = (name: string) => intervalJob(name, 200, { error: () => undefined }, async () => void (rounds += 1), { oncePerPeriod: database.db });
    const stops = [job('test.shared').start(), job('test.shared').start()];
    // Two schedulers with the same period: whatever the timing, no period is run twice.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await Promise.all(stops.map((stop) => stop()));
    const periods = await database.db.selectFrom('scheduled_job_runs').select('period_start').where('job', '=', 'test.shared').execute();
    expect(rounds).toBeGreaterThan(0);
    expect(rounds).toBe(periods.length);
  });
});
