-- Review comments on a BRA: what a client admin, an assessor or a reviewer says about it while it is in
-- progress or under review, with an optional verdict (recommend_approval, changes_requested). A comment is
-- a record of what was said: rows are only ever added. The service's role may only insert and read
-- (runtime-role.ts), and a trigger refuses changes for anyone else.
create table bra_comments (
  id uuid not null default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  bra_id uuid not null,
  -- The scenario link the comment is about; null for a comment on the whole BRA.
  bra_risk_scenario_id uuid,
  author_id uuid not null references users (id),
  body text not null constraint bra_comments_body_check check (char_length(body) between 1 and 5000),
  verdict text constraint bra_comments_verdict_check check (verdict in ('recommend_approval', 'changes_requested')),
  created_at timestamptz not null default clock_timestamp(),
  -- Sharding-ready (docs/scaling-sharding.md): the tenant is part of every key.
  constraint bra_comments_pkey primary key (id, enterprise_id),
  constraint bra_comments_bra_fkey foreign key (enterprise_id, bra_id) references bras (enterprise_id, id),
  constraint bra_comments_scenario_fkey foreign key (enterprise_id, bra_id, bra_risk_scenario_id)
    references bra_risk_scenarios (enterprise_id, bra_id, id)
);

-- The list (oldest first, paginated) and its count; the count and latest verdicts of the get-BRA.
create index bra_comments_bra_idx on bra_comments (enterprise_id, bra_id, created_at, id);
-- The latest verdict of each author on a BRA.
create index bra_comments_verdicts_idx on bra_comments (enterprise_id, bra_id, author_id, created_at desc, id desc)
  where verdict is not null;

create trigger bra_comments_immutable before update or delete on bra_comments
  for each row execute function append_only_refuse_change();
create trigger bra_comments_no_truncate before truncate on bra_comments
  for each statement execute function append_only_refuse_change();
