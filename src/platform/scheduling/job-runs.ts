import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * Once per period across instances (docs/scaling.md): a scheduled job's round first claims its period, a
 * row keyed by (job, period start) in `scheduled_job_runs`; the instance whose insert wins runs the round,
 * the others skip it. Periods are multiples of the job's interval since the epoch, so every instance on
 * the database (clocks kept by NTP) agrees on them, whenever it was started. A claim is one autocommitted
 * insert: no session state, so it works behind PgBouncer in transaction mode.
 */

/** Names this process in the rows it claims (the operator's `where` question), never read back. */
export const INSTANCE_NAME = `${hostname()}:${process.pid}`;

const KEEP_MS = 24 * 60 * 60 * 1000;

/** This process's rounds per job: run (claimed) and skipped (another instance had the period). */
const rounds = new Map<string, { ran: number; skipped: number }>();

export function jobRoundCounts(): ReadonlyMap<string, { ran: number; skipped: number }> {
  return rounds;
}

export function periodStart(nowMs: number, everyMs: number): Date {
  return new Date(Math.floor(nowMs / everyMs) * everyMs);
}

/** True when this instance has the job's current period (and must run the round); false when another has it. */
export async function claimJobPeriod(db: Kysely<DB>, job: string, everyMs: number, nowMs = Date.now()): Promise<boolean> {
  const claimed = await db
    .insertInto('scheduled_job_runs')
    .values({ job, period_start: periodStart(nowMs, everyMs), instance: INSTANCE_NAME })
    .onConflict((oc) => oc.columns(['job', 'period_start']).doNothing())
    .returning('job')
    .executeTakeFirst();
  const count = rounds.get(job) ?? { ran: 0, skipped: 0 };
  rounds.set(job, count);
  if (claimed === undefined) {
    count.skipped += 1;
    return false;
  }
  count.ran += 1;
  // The claims of a day ago say nothing any more: the winner of a period clears its job's old rows.
  await db.deleteFrom('scheduled_job_runs').where('job', '=', job).where('period_start', '<', new Date(nowMs - KEEP_MS)).execute();
  return true;
}
