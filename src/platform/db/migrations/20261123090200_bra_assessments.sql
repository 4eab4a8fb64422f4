-- What a BRA holds beyond its own row (D6.4–D6.10): ratings of its scenario links, the keys of its links
-- to sub-controls of the control library, and the immutable snapshots taken at creation and at approval. Owned by the
-- BRA module. Every foreign key includes enterprise_id.

-- A rating of one scenario link (D6.5). A new rating of the same link and type supersedes the earlier
-- one, which is kept (superseded_at set); at most one current rating per link and type.
create table bra_ratings (
  id uuid primary key default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  bra_id uuid not null,
  bra_risk_scenario_id uuid not null,
  rating_type text not null constraint bra_ratings_type_check check (rating_type in ('inherent', 'residual')),
  impact_score integer not null constraint bra_ratings_impact_check check (impact_score between 1 and 5),
  likelihood_score integer not null constraint bra_ratings_likelihood_check check (likelihood_score between 1 and 5),
  risk_score integer not null,
  risk_level text not null,
  justification text,
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  superseded_at timestamptz,
  constraint bra_ratings_enterprise_id_key unique (enterprise_id, id),
  constraint bra_ratings_bra_fkey foreign key (enterprise_id, bra_id) references bras (enterprise_id, id),
  -- The link must belong to the BRA the rating names.
  constraint bra_ratings_link_fkey foreign key (enterprise_id, bra_id, bra_risk_scenario_id)
    references bra_risk_scenarios (enterprise_id, bra_id, id),
  -- D6.1, as the service computes it (risk-rating.ts): the score is the product, the level its band.
  constraint bra_ratings_score_check check (risk_score = impact_score * likelihood_score),
  constraint bra_ratings_level_check check (risk_level = case
    when risk_score <= 4 then 'Low'
    when risk_score <= 9 then 'Medium'
    when risk_score <= 15 then 'High'
    else 'Very High' end)
);
create unique index bra_ratings_current_key on bra_ratings (enterprise_id, bra_risk_scenario_id, rating_type)
  where superseded_at is null;
create index bra_ratings_bra_idx on bra_ratings (enterprise_id, bra_id, created_at desc, id desc);

-- Control links (D6.6): bra_controls was created with the control library (20261123090100_controls.sql,
-- where the effectiveness counts read it); the BRA module owns it and adds the tenant key of its rows and
-- the lookup from a sub-control to the BRAs that rely on it. The same sub-control twice in a BRA is
-- refused by bra_controls_sub_control_key (409).
alter table bra_controls add constraint bra_controls_enterprise_id_key unique (enterprise_id, id);
create index bra_controls_sub_control_idx on bra_controls (enterprise_id, sub_control_id);

-- The full get-BRA data at creation and at approval (D6.10), with the methodology it was computed
-- under: the risk bands and the appetite record that applied (copied, not referenced, so that a later
-- change or deletion of that appetite never rewrites what the approver saw).
create table bra_snapshots (
  id uuid primary key default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  bra_id uuid not null,
  kind text not null constraint bra_snapshots_kind_check check (kind in ('created', 'approved')),
  content jsonb not null,
  methodology jsonb not null,
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  constraint bra_snapshots_enterprise_id_key unique (enterprise_id, id),
  constraint bra_snapshots_bra_fkey foreign key (enterprise_id, bra_id) references bras (enterprise_id, id)
);
create index bra_snapshots_bra_idx on bra_snapshots (enterprise_id, bra_id, created_at desc, id desc);

create function bra_snapshots_refuse_change() returns trigger language plpgsql as $$
begin
  raise exception 'BRA snapshots are immutable' using errcode = 'insufficient_privilege';
end;
$$;
create trigger bra_snapshots_immutable before update or delete on bra_snapshots
  for each row execute function bra_snapshots_refuse_change();
create trigger bra_snapshots_no_truncate before truncate on bra_snapshots
  for each statement execute function bra_snapshots_refuse_change();

-- bras.snapshot_id names the approval snapshot. Deferred: approval sets it, then writes the snapshot whose
-- content already carries that id, in one transaction.
alter table bras add constraint bras_snapshot_fkey foreign key (enterprise_id, snapshot_id)
  references bra_snapshots (enterprise_id, id) deferrable initially deferred;
