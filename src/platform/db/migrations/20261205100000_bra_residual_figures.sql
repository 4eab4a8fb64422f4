-- The residual figures of each approved BRA, kept up to date by the database (issue 51): what the dashboard's
-- trend aggregates, read as one row per BRA instead of joining every rating of every approved BRA of the
-- tenant at each request. An approved BRA's content never changes (nothing leaves `approved`, content is
-- edited only in draft and in progress: bras.lifecycle.ts), so its row is written when it is approved; the
-- triggers also follow any write to its ratings and scenario links (data written directly, as the bench's
-- generator and the suites' factories do), so the row is exact however the BRA got there. Owned by
-- src/modules/reporting (dashboard.repository.ts reads it; test/reporting/residual-figures.test.ts checks
-- it against the live computation).
create table bra_residual_figures (
  enterprise_id uuid not null,
  bra_id uuid not null,
  -- The current residual ratings of the BRA's included scenarios: how many, their sum and their maximum.
  scenarios integer not null,
  score_sum bigint not null,
  score_max integer,
  constraint bra_residual_figures_pkey primary key (enterprise_id, bra_id),
  constraint bra_residual_figures_bra_fkey foreign key (enterprise_id, bra_id) references bras (enterprise_id, id) on delete cascade
);

-- Recomputes the rows of the given BRAs (pairs of arrays): the approved ones get their figures, the others none.
create function refresh_bra_residual_figures(enterprise_ids uuid[], bra_ids uuid[]) returns void
language sql as $$
  delete from bra_residual_figures f
   using unnest(enterprise_ids, bra_ids) as t (enterprise_id, bra_id)
   where f.enterprise_id = t.enterprise_id and f.bra_id = t.bra_id;
  insert into bra_residual_figures (enterprise_id, bra_id, scenarios, score_sum, score_max)
  select b.enterprise_id, b.id, count(r.id), coalesce(sum(r.risk_score), 0), max(r.risk_score)
    from (select distinct t.enterprise_id, t.bra_id from unnest(enterprise_ids, bra_ids) as t (enterprise_id, bra_id)) t
    join bras b on b.enterprise_id = t.enterprise_id and b.id = t.bra_id and b.status = 'approved'
    left join (bra_risk_scenarios l
               join bra_ratings r on r.enterprise_id = l.enterprise_id and r.bra_id = l.bra_id and r.bra_risk_scenario_id = l.id
                                 and r.rating_type = 'residual' and r.superseded_at is null)
           on l.enterprise_id = b.enterprise_id and l.bra_id = b.id and l.included
   group by b.enterprise_id, b.id;
$$;

-- A BRA approved (or written approved): its row.
create function bra_residual_figures_of_bra() returns trigger
language plpgsql as $$
begin
  perform refresh_bra_residual_figures(array[new.enterprise_id], array[new.id]);
  return null;
end $$;
create trigger bra_residual_figures_on_approval after insert or update of status on bras
  for each row when (new.status = 'approved') execute function bra_residual_figures_of_bra();

-- Ratings and scenario links: once per statement, for the approved BRAs among those it touched (a rating
-- write on a BRA being assessed, the usual case, finds none and writes nothing).
create function bra_residual_figures_of_changed() returns trigger
language plpgsql as $$
declare
  enterprise_ids uuid[];
  bra_ids uuid[];
begin
  select array_agg(c.enterprise_id), array_agg(c.bra_id) into enterprise_ids, bra_ids
    from (select distinct enterprise_id, bra_id from changed) c
    join bras b on b.enterprise_id = c.enterprise_id and b.id = c.bra_id and b.status = 'approved';
  if bra_ids is not null then
    perform refresh_bra_residual_figures(enterprise_ids, bra_ids);
  end if;
  return null;
end $$;

-- One trigger per table and event: a trigger with a transition table may name one event only.
do $$
declare
  changed_table text;
  event text;
begin
  foreach changed_table in array array['bra_ratings', 'bra_risk_scenarios'] loop
    foreach event in array array['insert', 'update', 'delete'] loop
      execute format(
        'create trigger %I after %s on %I referencing %s table as changed for each statement execute function bra_residual_figures_of_changed()',
        'bra_residual_figures_' || changed_table || '_' || event, event, changed_table, case event when 'delete' then 'old' else 'new' end);
    end loop;
  end loop;
end $$;

-- The BRAs approved before this migration.
select refresh_bra_residual_figures(array_agg(enterprise_id), array_agg(id)) from bras where status = 'approved';
