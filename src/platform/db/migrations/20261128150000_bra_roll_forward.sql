-- Roll-forward (the next period of an approved BRA): the new BRA names the approved BRA it started from, and
-- each of its scenario links carries the residual rating that scenario had there, as a reference (not a
-- rating: the new BRA needs its own before approval). The four columns are all set or all null.
alter table bras add column rolled_from_bra_id uuid;
alter table bras add constraint bras_rolled_from_fkey foreign key (enterprise_id, rolled_from_bra_id) references bras (enterprise_id, id);
create index bras_rolled_from_idx on bras (enterprise_id, rolled_from_bra_id) where rolled_from_bra_id is not null;

alter table bra_risk_scenarios add column previous_residual_impact integer;
alter table bra_risk_scenarios add column previous_residual_likelihood integer;
alter table bra_risk_scenarios add column previous_residual_score integer;
alter table bra_risk_scenarios add column previous_residual_level text;
alter table bra_risk_scenarios add constraint bra_risk_scenarios_previous_residual_check check (
  (previous_residual_impact is null and previous_residual_likelihood is null and previous_residual_score is null and previous_residual_level is null)
  or (previous_residual_impact between 1 and 5 and previous_residual_likelihood between 1 and 5
      and previous_residual_score = previous_residual_impact * previous_residual_likelihood
      and previous_residual_level in ('Low', 'Medium', 'High', 'Very High'))
);

-- A scenario's trend across approved BRAs (GET /risk-scenarios/{id}/trend) finds its links by catalogue scenario.
create index bra_risk_scenarios_catalogue_idx on bra_risk_scenarios (enterprise_id, risk_scenario_id);
