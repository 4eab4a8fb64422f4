-- The rounds of the scheduled jobs (docs/scaling.md): one row per job and period, claimed by the instance
-- that runs it, so that several instances on one database run each job once per period. A platform table,
-- not a tenant one: it holds no enterprise's data. Rows older than a day are removed by the claims.
create table scheduled_job_runs (
  job text not null,
  period_start timestamptz not null,
  instance text not null,
  claimed_at timestamptz not null default now(),
  constraint scheduled_job_runs_pkey primary key (job, period_start)
);
