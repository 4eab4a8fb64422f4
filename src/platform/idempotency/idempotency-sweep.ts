import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/engine.js';
import type { DB } from '../db/schema.js';
import { intervalJob, type Job } from '../jobs.js';
import { sweepExpired } from './idempotency.repository.js';

const SWEEP_EVERY_MS = 10 * 60 * 1000;
const BATCH = 1000;

/** Deletes expired answers in batches until none is left (rows are claimed with SKIP LOCKED, so instances share it). */
export async function sweepIdempotencyKeys(db: Kysely<DB>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await sweepExpired(db, BATCH);
    total += deleted;
    if (deleted < BATCH) return total;
  }
}

/** The platform's own background work: expired Idempotency-Key answers leave the database every ten minutes. */
export function idempotencySweepJob(platform: { database: Database; log: Pick<FastifyBaseLogger, 'error'> }): Job {
  return intervalJob('platform.idempotency_sweep', SWEEP_EVERY_MS, platform.log, async () => {
    await sweepIdempotencyKeys(platform.database.db);
  });
}
