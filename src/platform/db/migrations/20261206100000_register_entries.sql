-- The register's entries, kept up to date by the database (issue 51): one row per included scenario link of
-- every BRA, whatever its status, with its scenario's name and category and its current inherent and residual
-- ratings (bras/current-rating.ts: the rating of the type that nothing has superseded; null when unrated).
-- The register and the dashboard read the BRAs they choose (the newest approved one of each place, and the
-- live ones when asked) joined to these rows by BRA, instead of joining each link to its scenario and to two
-- rating lookups at every request. Holding every BRA's links, the rows do not depend on a BRA's status or
-- approval; they follow every write to the links, their ratings and the scenarios' names and categories, in
-- the writer's transaction (data written directly, as the bench's generator and the suites' factories do,
-- included). What is read at request time stays there: names of places, the appetite, the acceptance in force
-- (it turns with the calendar), control effectiveness and actions. Owned by src/modules/reporting
-- (register.repository.ts reads it; test/reporting/register-entries.test.ts checks it against the live joins).
create table register_entries (
  enterprise_id uuid not null,
  scenario_link_id uuid not null,
  bra_id uuid not null,
  risk_scenario_id uuid not null,
  scenario_name text not null,
  category text not null,
  inherent_impact integer,
  inherent_likelihood integer,
  inherent_score integer,
  inherent_level text,
  residual_impact integer,
  residual_likelihood integer,
  residual_score integer,
  residual_level text,
  constraint register_entries_pkey primary key (enterprise_id, scenario_link_id),
  constraint register_entries_link_fkey foreign key (enterprise_id, bra_id, scenario_link_id)
    references bra_risk_scenarios (enterprise_id, bra_id, id) on delete cascade
);
create index register_entries_bra_idx on register_entries (enterprise_id, bra_id);

-- Recomputes the rows of the given scenario links (pairs of arrays): an included link gets its row, any other
-- none. The upsert (rather than a plain insert after the delete) keeps two writers of the same link, which
-- the BRA's row lock does not always order (a scenario renamed while a link of it is rated), from colliding.
create function refresh_register_entries(enterprise_ids uuid[], link_ids uuid[]) returns void
language sql as $$
  delete from register_entries e
   using unnest(enterprise_ids, link_ids) as t (enterprise_id, link_id)
   where e.enterprise_id = t.enterprise_id and e.scenario_link_id = t.link_id;
  insert into register_entries (enterprise_id, scenario_link_id, bra_id, risk_scenario_id, scenario_name, category,
                                inherent_impact, inherent_likelihood, inherent_score, inherent_level,
                                residual_impact, residual_likelihood, residual_score, residual_level)
  select x.*
    from (select distinct t.enterprise_id, t.link_id from unnest(enterprise_ids, link_ids) as t (enterprise_id, link_id)) t
    -- Per link, by its keys (offset 0 keeps the subquery apart): the planner knows nothing of the arrays'
    -- length, and a plan that joined the catalogue first would read every link of each scenario.
    cross join lateral (
      select l.enterprise_id, l.id, l.bra_id, l.risk_scenario_id, rs.name, rs.category,
             i.impact_score, i.likelihood_score, i.risk_score, i.risk_level,
             r.impact_score, r.likelihood_score, r.risk_score, r.risk_level
        from bra_risk_scenarios l
        join risk_scenarios rs on rs.enterprise_id = l.enterprise_id and rs.id = l.risk_scenario_id
        left join bra_ratings i on i.enterprise_id = l.enterprise_id and i.bra_risk_scenario_id = l.id
                               and i.rating_type = 'inherent' and i.superseded_at is null
        left join bra_ratings r on r.enterprise_id = l.enterprise_id and r.bra_risk_scenario_id = l.id
                               and r.rating_type = 'residual' and r.superseded_at is null
       where l.enterprise_id = t.enterprise_id and l.id = t.link_id and l.included
      offset 0) x
  on conflict (enterprise_id, scenario_link_id) do update
     set bra_id = excluded.bra_id, risk_scenario_id = excluded.risk_scenario_id,
         scenario_name = excluded.scenario_name, category = excluded.category,
         inherent_impact = excluded.inherent_impact, inherent_likelihood = excluded.inherent_likelihood,
         inherent_score = excluded.inherent_score, inherent_level = excluded.inherent_level,
         residual_impact = excluded.residual_impact, residual_likelihood = excluded.residual_likelihood,
         residual_score = excluded.residual_score, residual_level = excluded.residual_level;
$$;

-- Scenario links: once per statement, the links it touched.
create function register_entries_of_changed_links() returns trigger
language plpgsql as $$
declare
  enterprise_ids uuid[];
  link_ids uuid[];
begin
  select array_agg(c.enterprise_id), array_agg(c.id) into enterprise_ids, link_ids from changed c;
  if link_ids is not null then
    perform refresh_register_entries(enterprise_ids, link_ids);
  end if;
  return null;
end $$;

-- Ratings: once per statement, the links of the ratings it touched.
create function register_entries_of_changed_ratings() returns trigger
language plpgsql as $$
declare
  enterprise_ids uuid[];
  link_ids uuid[];
begin
  select array_agg(c.enterprise_id), array_agg(c.bra_risk_scenario_id) into enterprise_ids, link_ids
    from (select distinct enterprise_id, bra_risk_scenario_id from changed) c;
  if link_ids is not null then
    perform refresh_register_entries(enterprise_ids, link_ids);
  end if;
  return null;
end $$;

-- One trigger per table and event: a trigger with a transition table may name one event only.
do $$
declare
  changed_table text;
  event text;
begin
  foreach changed_table in array array['bra_risk_scenarios', 'bra_ratings'] loop
    foreach event in array array['insert', 'update', 'delete'] loop
      execute format(
        'create trigger %I after %s on %I referencing %s table as changed for each statement execute function %I()',
        'register_entries_' || changed_table || '_' || event, event, changed_table, case event when 'delete' then 'old' else 'new' end,
        case changed_table when 'bra_ratings' then 'register_entries_of_changed_ratings' else 'register_entries_of_changed_links' end);
    end loop;
  end loop;
end $$;

-- A scenario renamed or recategorised: the rows of its links. A row trigger, as a trigger naming columns may
-- not have a transition table; renames are rare, and the condition skips every other update of the library.
create function register_entries_of_scenario() returns trigger
language plpgsql as $$
begin
  perform refresh_register_entries(array_agg(l.enterprise_id), array_agg(l.id))
     from bra_risk_scenarios l
    where l.enterprise_id = new.enterprise_id and l.risk_scenario_id = new.id and l.included;
  return null;
end $$;
create trigger register_entries_on_scenario after update of name, category on risk_scenarios
  for each row when (old.name is distinct from new.name or old.category is distinct from new.category)
  execute function register_entries_of_scenario();

-- The links written before this migration.
select refresh_register_entries(array_agg(enterprise_id), array_agg(id)) from bra_risk_scenarios where included;
analyze register_entries;
