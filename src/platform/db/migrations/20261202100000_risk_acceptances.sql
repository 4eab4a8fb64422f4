-- Risk acceptance (issue 48): a client admin's formal, expiring decision to accept a scenario of a BRA whose
-- residual rating is above its appetite. Owned by src/modules/bras (its acceptance room).
--
-- An acceptance is a record of a decision: its terms never change. Only its end is written, once: it is
-- renewed (a new acceptance replaces it), revoked, expired (the day after expires_on), or ended by a new
-- residual rating above the one it accepted. At most one acceptance is active per scenario link.
create table risk_acceptances (
  id uuid not null default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  bra_id uuid not null,
  bra_risk_scenario_id uuid not null,
  rationale text not null constraint risk_acceptances_rationale_check check (char_length(rationale) between 1 and 5000),
  conditions text constraint risk_acceptances_conditions_check check (char_length(conditions) between 1 and 5000),
  mitigation_action_id uuid,
  -- The last day the acceptance holds (UTC); it expires the next day.
  expires_on date not null,
  -- The residual rating accepted: a new residual score above it ends the acceptance.
  accepted_residual_score integer not null constraint risk_acceptances_score_check check (accepted_residual_score between 1 and 25),
  accepted_threshold integer not null,
  accepted_by uuid not null references users (id),
  accepted_at timestamptz not null default clock_timestamp(),
  -- The acceptance this one renews (the previous one ended as 'renewed').
  renews_id uuid,
  status text not null default 'active'
    constraint risk_acceptances_status_check check (status in ('active', 'renewed', 'revoked', 'expired', 'ended')),
  ended_at timestamptz,
  ended_by uuid references users (id),
  end_reason text constraint risk_acceptances_end_reason_check check (char_length(end_reason) between 1 and 5000),
  -- 1 while active, 2 once ended: the version its ETag names (If-Match on a revocation).
  row_version integer not null default 1,
  -- Sharding-ready (docs/scaling-sharding.md): the tenant is part of every key.
  constraint risk_acceptances_pkey primary key (id, enterprise_id),
  constraint risk_acceptances_scenario_fkey foreign key (enterprise_id, bra_id, bra_risk_scenario_id)
    references bra_risk_scenarios (enterprise_id, bra_id, id),
  constraint risk_acceptances_action_fkey foreign key (enterprise_id, mitigation_action_id)
    references mitigation_actions (enterprise_id, id),
  constraint risk_acceptances_renews_fkey foreign key (renews_id, enterprise_id) references risk_acceptances (id, enterprise_id),
  constraint risk_acceptances_end_check check ((status = 'active') = (ended_at is null))
);

-- One active acceptance per scenario link; also how the BRA answer, the register and a new rating find it.
create unique index risk_acceptances_active_key on risk_acceptances (enterprise_id, bra_risk_scenario_id) where status = 'active';
-- A scenario link's acceptances, newest first (its history), and a BRA's (the list's bra_id filter).
create index risk_acceptances_bra_idx on risk_acceptances (enterprise_id, bra_id, accepted_at desc, id desc);
-- The list, newest first, and its status filter.
create index risk_acceptances_list_idx on risk_acceptances (enterprise_id, status, accepted_at desc, id desc);
-- The daily expiry round and the dashboard's acceptances expiring soon.
create index risk_acceptances_expiry_idx on risk_acceptances (expires_on, enterprise_id) where status = 'active';
