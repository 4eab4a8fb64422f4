import type { ColumnType } from 'kysely';

export interface ScheduledJobRunsTable {
  job: string;
  /** The start of the period the round belongs to (a multiple of the job's interval since the epoch). */
  period_start: Date;
  /** Which instance ran it (host:pid), for the operator. */
  instance: string;
  claimed_at: ColumnType<Date, never, never>;
}

/** Written by the platform's scheduling (src/platform/scheduling/) only. */
export interface SchedulingTables {
  scheduled_job_runs: ScheduledJobRunsTable;
}
