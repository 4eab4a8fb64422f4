import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { writeAudit } from '../../platform/audit/audit-writer.js';
import type { DB } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { claimOutboxEvents, removeOutboxEvents } from '../../platform/events/outbox.js';
import { raiseAlert } from '../../platform/monitoring/alert-raiser.js';
import {
  disableFailingEndpoint,
  leaseDueEndpoints,
  markAttemptFailed,
  markDelivered,
  markRecovered,
  pendingDeliveries,
  queueDeliveries,
  releaseLease,
  type ClaimedEndpoint,
} from './dispatch.repository.js';
import { retryDelayMs, retryWindowOver } from './retry-schedule.js';
import { SEND_TIMEOUT_MS, type Sender } from './webhook-sender.js';
import { signedHeaders } from './webhook-signature.js';

/** One instance at a time turns outbox events into deliveries, so deliveries queue in outbox order. */
const FAN_OUT_LOCK = 'webhooks.fan_out';
const LEASE_MS = 60_000;
/** A lease is not used for a new attempt unless that attempt can end well before the lease does. */
const LEASE_MARGIN_MS = SEND_TIMEOUT_MS + 5_000;

export interface DispatcherOptions {
  db: Kysely<DB>;
  sender: Sender;
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>;
  /** The clock of every scheduling decision (due, backoff, 24 hours); the suites move it instead of waiting. */
  now?: () => Date;
  /** The jitter's random source, in [0, 1). */
  random?: () => number;
  /** The wait after the n-th failed attempt (default: retry-schedule.ts); the suites may shorten it. */
  retryDelay?: (attempt: number, random: number) => number;
  /** Events fanned out per transaction. */
  fanOutBatch?: number;
  /** Endpoints served at once by this instance. */
  concurrency?: number;
  /** Deliveries sent to one endpoint per lease. */
  perLease?: number;
}

export interface RoundResult {
  queued: number;
  attempts: number;
  delivered: number;
}

/**
 * The webhook dispatcher. A round fans new outbox events out to the subscribed endpoints, then delivers:
 * it leases endpoints whose oldest pending delivery is due and, per endpoint, sends pending deliveries one
 * after the other in event order, stopping at the first failure (which is retried with backoff before
 * anything behind it goes: in order per endpoint, at least once). Several instances share the work (SKIP
 * LOCKED claims, leases). An endpoint whose deliveries have failed for 24 hours is disabled, audited, and
 * raises a `system` alert for its enterprise.
 */
export function createDispatcher(options: DispatcherOptions) {
  const { db, sender, log } = options;
  const now = options.now ?? (() => new Date());
  const random = options.random ?? Math.random;
  const retryDelay = options.retryDelay ?? retryDelayMs;
  const fanOutBatch = options.fanOutBatch ?? 500;
  const concurrency = options.concurrency ?? 8;
  const perLease = options.perLease ?? 100;

  async function fanOut(): Promise<number> {
    return db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(hashtext(${FAN_OUT_LOCK})) as locked`.execute(trx);
      if (rows[0]?.locked !== true) return 0;
      const events = await claimOutboxEvents(trx, fanOutBatch);
      await queueDeliveries(trx, events, now());
      await removeOutboxEvents(trx, events.map((event) => event.seq));
      return events.length;
    });
  }

  /** Gives up on a delivery after its 24 hours: the endpoint has failed that long, and is disabled. */
  async function disable(endpoint: ClaimedEndpoint): Promise<void> {
    const since = endpoint.failing_since ?? now();
    const reason = `Deliveries failed for 24 hours (since ${since.toISOString()})`;
    await inTransaction(db, async ({ trx, onCommit }) => {
      const disabled = await disableFailingEndpoint(trx, endpoint.id, reason);
      if (disabled === undefined) return;
      await writeAudit(trx, {
        enterpriseId: endpoint.enterprise_id,
        actor: { userId: null, email: null, fullName: null },
        action: 'update',
        entityType: 'webhook',
        entityId: endpoint.id,
        operation: 'webhooks.dispatcher.disable',
        details: { url: endpoint.url, enabled: { from: true, to: false }, reason, failing_since: since.toISOString() },
        ip: null,
        userAgent: null,
      });
      onCommit(async () => {
        await raiseAlert(db, {
          type: 'system',
          severity: 'warning',
          enterpriseId: endpoint.enterprise_id,
          cause: `webhook_disabled:${endpoint.id}`,
          title: 'Webhook endpoint disabled',
          message: `Deliveries to ${new URL(endpoint.url).host} failed for 24 hours; the endpoint ${endpoint.id} was disabled. Fix the receiver, then enable it again on the enterprise's Integrations screen.`,
        });
      });
    });
  }

  /** Returns the number of attempts made and how many were delivered. */
  async function serve(endpoint: ClaimedEndpoint, leaseEnds: number): Promise<{ attempts: number; delivered: number }> {
    let attempts = 0;
    let delivered = 0;
    try {
      for (const head of await pendingDeliveries(db, endpoint.id, perLease)) {
        if (head.next_attempt_at.getTime() > now().getTime() || now().getTime() + LEASE_MARGIN_MS >= leaseEnds) break;
        const graceOver = endpoint.previous_secret_expires_at === null || endpoint.previous_secret_expires_at.getTime() <= now().getTime();
        const secrets = graceOver || endpoint.previous_secret === null ? [endpoint.secret] : [endpoint.secret, endpoint.previous_secret];
        // The signed timestamp is the wall clock's: receivers compare it with theirs to refuse replays.
        const headers = signedHeaders(secrets, head.event_id, Math.floor(Date.now() / 1000), head.body);
        const result = await sender.send(endpoint.url, headers, head.body);
        attempts += 1;
        const at = now();
        if (result.error === null) {
          await markDelivered(db, head.id, result.statusCode!, at);
          if (endpoint.failing_since !== null) await markRecovered(db, endpoint.id);
          delivered += 1;
          endpoint.failing_since = null;
          continue;
        }
        const firstAttempt = head.first_attempt_at ?? at;
        const givingUp = retryWindowOver(firstAttempt, at);
        const retryAt = givingUp ? null : new Date(at.getTime() + retryDelay(head.attempt_count + 1, random()));
        await markAttemptFailed(db, endpoint.id, head.id, { statusCode: result.statusCode, error: result.error, at, retryAt });
        endpoint.failing_since ??= at;
        if (givingUp) await disable(endpoint);
        break;
      }
    } finally {
      await releaseLease(db, endpoint.id);
    }
    return { attempts, delivered };
  }

  async function deliverDue(): Promise<{ attempts: number; delivered: number }> {
    const start = now();
    const endpoints = await leaseDueEndpoints(db, start, new Date(start.getTime() + LEASE_MS), concurrency);
    const results = await Promise.all(
      endpoints.map((endpoint) =>
        serve(endpoint, start.getTime() + LEASE_MS).catch((error: unknown) => {
          log.error({ err: error, endpoint_id: endpoint.id }, 'a webhook endpoint could not be served');
          return { attempts: 0, delivered: 0 };
        }),
      ),
    );
    return results.reduce((sum, r) => ({ attempts: sum.attempts + r.attempts, delivered: sum.delivered + r.delivered }), { attempts: 0, delivered: 0 });
  }

  return {
    fanOut,
    deliverDue,
    /** Fans out and delivers until nothing is left to do now (or `maxPasses` passes), so a burst drains in one round. */
    async round(maxPasses = 50): Promise<RoundResult> {
      const total: RoundResult = { queued: 0, attempts: 0, delivered: 0 };
      for (let pass = 0; pass < maxPasses; pass += 1) {
        const queued = await fanOut();
        const { attempts, delivered } = await deliverDue();
        total.queued += queued;
        total.attempts += attempts;
        total.delivered += delivered;
        if (queued === 0 && attempts === 0) break;
      }
      return total;
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
