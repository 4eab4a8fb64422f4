import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { intervalJob, type Job } from '../../platform/jobs.js';
import { announceMail } from '../../platform/mail/outbox.js';
import type { Platform } from '../../platform/module.js';
import { claimJobPeriod } from '../../platform/scheduling/job-runs.js';
import { queueDigests } from './digest.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often an instance looks whether today's digest is due: the digest goes out within this of its hour. */
export const DIGEST_TICK_MS = 5 * 60 * 1000;
export const DIGEST_JOB = 'notifications.digest';

/**
 * The daily digest round (issue 49): from NOTIFICATION_DIGEST_HOUR (UTC) on, the first round of the UTC day
 * on any instance claims the day (scheduling/job-runs.ts, a period of a day) and queues the digests, the
 * claim and the marking in one transaction: a second round, a restart or another instance that day finds
 * the day claimed; a round that fails leaves the day unclaimed for the next tick. Returns how many digests
 * were queued, or null when the round had nothing to do (before the hour, or the day already claimed).
 */
export async function runDailyDigest(db: Kysely<DB>, now: Date, digestHour: number): Promise<number | null> {
  if (now.getUTCHours() < digestHour) return null;
  return inTransaction(db, async ({ trx }) => {
    if (!(await claimJobPeriod(trx, DIGEST_JOB, DAY_MS, now.getTime()))) return null;
    const queued = await queueDigests(trx, now);
    if (queued > 0) announceMail(trx);
    return queued;
  });
}

/**
 * A tick every few minutes rather than intervalJob's own once-per-period claim: that claim would make the
 * period the tick, and the digest must be claimed per day, from its hour, whenever the instances started.
 */
export function digestJob(platform: Pick<Platform, 'database' | 'log' | 'config'>): Job {
  const { db } = platform.database;
  return intervalJob(DIGEST_JOB, DIGEST_TICK_MS, platform.log, async () => {
    await runDailyDigest(db, new Date(), platform.config.mail.digestHour);
  });
}
