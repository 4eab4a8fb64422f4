-- Each enterprise's health (docs/enterprise-health.md), one row per UTC day: the latest assessment of
-- that day, kept for the 90-day history and to tell when the status worsens or recovers.
create table enterprise_health_history (
  enterprise_id uuid not null references enterprises (id),
  day date not null,
  score integer not null constraint enterprise_health_history_score_check check (score between 0 and 100),
  status text not null constraint enterprise_health_history_status_check check (status in ('healthy', 'at_risk', 'critical')),
  signals jsonb not null,
  recorded_at timestamptz not null default now(),
  constraint enterprise_health_history_pkey primary key (enterprise_id, day)
);
