import type pg from 'pg';
import { Counter, Gauge } from 'prom-client';
import { auditEntriesWritten } from '../audit/audit-counts.js';
import { openAlertCounts } from '../monitoring/alert-counts.js';
import type { Database } from '../db/engine.js';
import type { ReadRouting } from '../db/read-routing.js';
import { jobRoundCounts } from '../scheduling/job-runs.js';
import type { Metrics } from './metrics.js';

const ALERT_TYPES = ['enterprise_health', 'authentication', 'performance', 'database', 'system'] as const;
const ALERT_SEVERITIES = ['info', 'warning', 'error', 'critical'] as const;

/**
 * What the platform itself reports beside the request path: the connection pool (read from pg's counters),
 * each SQL statement's time (through the database's query observer), open alerts by type and severity, and
 * the audit entries written (the sum of every chain's length, so it counts every instance's writes).
 */
export function registerPlatformMetrics(metrics: Metrics, database: Database, pool: pg.Pool | undefined, reads?: ReadRouting): () => void {
  const registers = [metrics.registry];
  if (reads !== undefined) {
    // The reads a service may send to the replica, by where they went and why (db/read-routing.ts).
    new Counter({
      name: 'risk_db_routed_reads_total',
      help: 'Reads allowed on the replica, by target (replica, primary) and reason (replica; own_write: the caller changed something the replica has not replayed; replica_unavailable, replica_lagging, in_transaction, no_replica)',
      labelNames: ['target', 'reason'],
      registers,
      collect() {
        this.reset();
        for (const [name, value] of reads.counts()) {
          const [target, reason] = name.split(':');
          this.inc({ target: target!, reason: reason! }, value);
        }
      },
    });
    new Gauge({
      name: 'risk_db_replica_lag_seconds',
      help: 'How far the read replica was behind the primary at the last probe; -1 when it does not answer; 0 without DATABASE_REPLICA_URL',
      registers,
      collect() {
        const status = reads.status();
        this.set(status === null ? 0 : status.lag_ms === null ? -1 : status.lag_ms / 1000);
      },
    });
  }
  if (pool !== undefined) {
    const poolGauge = (name: string, help: string, read: () => number) =>
      new Gauge({ name, help, registers, collect() { this.set(read()); } });
    poolGauge('risk_db_pool_connections', 'Connections the pool holds (in use and idle)', () => pool.totalCount);
    poolGauge('risk_db_pool_idle_connections', 'Idle connections in the pool', () => pool.idleCount);
    poolGauge('risk_db_pool_waiting_requests', 'Queries waiting for a pooled connection', () => pool.waitingCount);
  }
  // Rounds of the jobs that run once per period across instances: this process's share (ran) and the
  // periods another instance had (skipped). Summed over the instances, `ran` is one per period.
  new Counter({
    name: 'risk_scheduled_job_rounds_total',
    help: 'Rounds of the once-per-period jobs on this instance, by job and outcome (ran: claimed the period; skipped: another instance had it)',
    labelNames: ['job', 'outcome'],
    registers,
    collect() {
      this.reset();
      for (const [job, count] of jobRoundCounts()) {
        this.inc({ job, outcome: 'ran' }, count.ran);
        this.inc({ job, outcome: 'skipped' }, count.skipped);
      }
    },
  });
  const ok = metrics.queryDuration.series({ outcome: 'ok' });
  const failed = metrics.queryDuration.series({ outcome: 'error' });
  const stopObserving = database.observeQueries((ms, error) => (error ? failed : ok)(ms / 1000));

  metrics.addSource(
    {
      name: 'risk_alerts_open',
      help: 'System alerts in status open, by type and severity (D9.5)',
      labelNames: ['type', 'severity'],
      async read(db) {
        const counts = await openAlertCounts(db);
        // Every pair is reported, zeros included, so that a series does not vanish when its last alert closes.
        return ALERT_TYPES.flatMap((type) =>
          ALERT_SEVERITIES.map((severity) => ({
            labels: { type, severity },
            value: counts.find((row) => row.type === type && row.severity === severity)?.count ?? 0,
          })),
        );
      },
    },
    database.db,
  );
  metrics.addSource(
    {
      name: 'risk_audit_entries_written',
      help: 'Audit entries written since the database was created, all chains (grows only)',
      read: async (db) => [{ value: await auditEntriesWritten(db) }],
    },
    database.db,
  );
  return stopObserving;
}
