import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { withTimeout } from '../timeout.js';
import { guardPool } from './connection-guard.js';
import { notePool } from './engine.js';
import type { DB, Executor } from './schema.js';

/**
 * Reads that may come from a streaming replica (DATABASE_REPLICA_URL, docs/scaling.md): services ask for
 * their executor explicitly, for the reads that may lag a little (audit search and export, effectiveness,
 * heat maps, list totals), and get
 *  - their own executor when it is a transaction: every read inside a change stays on the primary;
 *  - the primary when the replica is unreachable, or lags more than REPLICA_MAX_LAG_MS, or has not yet
 *    replayed the caller's own last change (read-your-writes, below);
 *  - the replica otherwise.
 *
 * Read-your-writes is per caller and exact, by WAL position: after a change of theirs commits (a
 * successful POST, PUT, PATCH or DELETE, before its answer is sent) the primary's current WAL position is
 * kept for the caller, in Redis when REDIS_URL is set (so every instance knows it) or in this process.
 * Until the replica has replayed that position, the caller's routed reads go to the primary. The position
 * is kept for ten times the allowed lag (at least a minute): a replica further behind is not used at all.
 *
 * The replica's state is probed every second: the primary's WAL position is sampled, and the replica's lag
 * is the age of the oldest sample it has not replayed yet (0 when it has replayed the latest): a measure
 * in the primary's own clock that does not grow while nothing is written. The replay position the probe
 * saw is the one reads are compared with; it can only be behind the replica's real one, so a stale probe
 * sends reads to the primary, never a read to a replica that lacks the caller's change.
 */
export interface ReadRouting extends RoutedReads {
  /** Remembers the primary's WAL position for a caller whose change has just committed. */
  noteWrite(userId: string): Promise<void>;
  /** The replica's state for /health; null when none is configured. */
  status(): ReplicaStatus | null;
  /** Routed reads so far, by target and reason (the metrics). */
  counts(): ReadonlyMap<string, number>;
  close(): Promise<void>;
}

/** What a service takes: the one question it asks for each read it may send to the replica. */
export interface RoutedReads {
  /**
   * The executor for an allowed read by `userId` (null: no caller, as a job), given the service's own `db`:
   * `db` itself when it is a transaction or the read must stay on the primary, else the replica.
   */
  executorFor<E extends Executor>(db: E, userId: string | null): Promise<E>;
}

/** For services built without the platform (suites, the demo): every read on the service's own executor. */
export const PRIMARY_READS: RoutedReads = {
  async executorFor(db) {
    return db;
  },
};

export type ReadReason = 'replica' | 'own_write' | 'replica_unavailable' | 'replica_lagging' | 'in_transaction' | 'no_replica';

export interface ReplicaStatus {
  state: 'ok' | 'lagging' | 'unreachable';
  /** The last measured lag; null when the replica could not be asked. */
  lag_ms: number | null;
  /** Where the routed reads go now. */
  reads: 'replica' | 'primary';
}

/** Where the callers' last WAL positions are kept: Redis (shared) or this process. */
export interface WriteMarks {
  set(userId: string, lsn: bigint, ttlMs: number): Promise<void>;
  get(userId: string): Promise<bigint | null>;
  close(): Promise<void>;
}

const PROBE_EVERY_MS = 1_000;
const PROBE_TIMEOUT_MS = 1_000;

/** '16/B374D848' → 0x16B374D848. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

const key = (target: 'primary' | 'replica', reason: ReadReason) => `${target}:${reason}`;

function countingRouting(counts: Map<string, number>) {
  return (target: 'primary' | 'replica', reason: ReadReason) => {
    const name = key(target, reason);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  };
}

/** No replica configured: every read on the primary (counted, so the metrics show the split either way). */
export function primaryOnly(): ReadRouting {
  const counts = new Map<string, number>();
  const count = countingRouting(counts);
  return {
    async executorFor(db) {
      count('primary', db.isTransaction ? 'in_transaction' : 'no_replica');
      return db;
    },
    async noteWrite() {},
    status: () => null,
    counts: () => counts,
    async close() {},
  };
}

export function memoryWriteMarks(): WriteMarks {
  const marks = new Map<string, { lsn: bigint; until: number }>();
  return {
    async set(userId, lsn, ttlMs) {
      if (marks.size > 100_000) for (const [id, mark] of marks) if (mark.until < Date.now()) marks.delete(id);
      marks.set(userId, { lsn, until: Date.now() + ttlMs });
    },
    async get(userId) {
      const mark = marks.get(userId);
      return mark === undefined || mark.until < Date.now() ? null : mark.lsn;
    },
    async close() {},
  };
}

/** The callers' WAL positions in Redis, under `<prefix>:<user id>`: every instance sees a caller's last change. */
export async function redisWriteMarks(url: string, prefix = 'read-your-writes'): Promise<WriteMarks> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  redis.on('error', () => undefined);
  await redis.connect();
  return {
    async set(userId, lsn, ttlMs) {
      await redis.set(`${prefix}:${userId}`, lsn.toString(), 'PX', ttlMs);
    },
    async get(userId) {
      const value = await redis.get(`${prefix}:${userId}`);
      return value === null ? null : BigInt(value);
    },
    async close() {
      await redis.quit().catch(() => undefined);
    },
  };
}

export interface ReplicaRoutingOptions {
  primary: Kysely<DB>;
  replicaUrl: string;
  maxLagMs: number;
  marks: WriteMarks;
  poolSize?: number;
  log: { warn(object: object, message: string): void };
  /** How often the replica is probed (tests). */
  probeEveryMs?: number;
}

export function replicaRouting(options: ReplicaRoutingOptions): ReadRouting {
  const { primary, maxLagMs, marks, log } = options;
  const pool = new pg.Pool({ connectionString: options.replicaUrl, max: options.poolSize ?? 10, connectionTimeoutMillis: 2_000 });
  // A connection to the replica lost (the replica stopped, restarted, failed over): its reads go to the
  // primary at once, until the next probe finds it answering again.
  guardPool(pool, () => {
    reachable = false;
    lagMs = null;
  });
  const replica = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  // The audit export's COPY runs on the replica's pool as on the primary's.
  notePool(replica, pool);
  const counts = new Map<string, number>();
  const count = countingRouting(counts);
  const markTtlMs = Math.max(60_000, maxLagMs * 10);

  /** The primary's WAL positions of the last minutes, oldest first. */
  const samples: { at: number; lsn: bigint }[] = [];
  let replayed: bigint | null = null;
  let lagMs: number | null = null;
  let reachable = false;
  let warned = false;

  async function probe(): Promise<void> {
    const now = Date.now();
    try {
      const { rows } = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(primary);
      samples.push({ at: now, lsn: parseLsn(rows[0]!.lsn) });
      while (samples.length > 1 && now - samples[0]!.at > markTtlMs) samples.shift();
    } catch {
      // The primary's own trouble is the primary's: reads go there anyway.
    }
    try {
      const { rows } = await withTimeout(
        sql<{ lsn: string | null; standby: boolean }>`select pg_last_wal_replay_lsn()::text as lsn, pg_is_in_recovery() as standby`.execute(replica),
        PROBE_TIMEOUT_MS,
      );
      const row = rows[0]!;
      if (!row.standby || row.lsn === null) throw new Error('DATABASE_REPLICA_URL is not a streaming replica (pg_is_in_recovery() is false)');
      replayed = parseLsn(row.lsn);
      const behind = samples.find((sample) => sample.lsn > replayed!);
      lagMs = behind === undefined ? 0 : now - behind.at;
      reachable = true;
      warned = false;
    } catch (error) {
      if (!warned) log.warn({ err: error }, 'the read replica does not answer: its reads go to the primary');
      warned = true;
      reachable = false;
      lagMs = null;
    }
  }

  let probing: Promise<void> | null = probe().finally(() => {
    probing = null;
  });
  const timer = setInterval(() => {
    probing ??= probe().finally(() => {
      probing = null;
    });
  }, options.probeEveryMs ?? PROBE_EVERY_MS);
  timer.unref();

  const usable = () => reachable && lagMs !== null && lagMs <= maxLagMs;

  return {
    async executorFor(db, userId) {
      if (db.isTransaction) {
        count('primary', 'in_transaction');
        return db;
      }
      if (!reachable) {
        count('primary', 'replica_unavailable');
        return db;
      }
      if (!usable()) {
        count('primary', 'replica_lagging');
        return db;
      }
      if (userId !== null) {
        let mark: bigint | null;
        try {
          mark = await marks.get(userId);
        } catch {
          // Redis down: the caller's last change is unknown, so the primary answers.
          count('primary', 'own_write');
          return db;
        }
        if (mark !== null && (replayed === null || replayed < mark)) {
          count('primary', 'own_write');
          return db;
        }
      }
      count('replica', 'replica');
      // A Kysely on the replica's pool; E is Kysely<DB> here, as `db` is no transaction.
      return replica as unknown as typeof db;
    },
    async noteWrite(userId) {
      const { rows } = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(primary);
      await marks.set(userId, parseLsn(rows[0]!.lsn), markTtlMs);
    },
    status() {
      return { state: !reachable ? 'unreachable' : usable() ? 'ok' : 'lagging', lag_ms: lagMs, reads: usable() ? 'replica' : 'primary' };
    },
    counts: () => counts,
    async close() {
      clearInterval(timer);
      if (probing !== null) await probing;
      await replica.destroy();
      await marks.close();
    },
  };
}
