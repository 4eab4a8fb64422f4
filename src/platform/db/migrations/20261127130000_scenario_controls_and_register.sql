-- Control links per scenario: a link may name one scenario link of its own BRA (the foreign key includes
-- bra_id, so a scenario of another BRA cannot be named). A link without a scenario keeps its BRA-wide
-- meaning. The same sub-control may now mitigate several scenarios of one BRA, but never twice the same
-- scenario, nor twice BRA-wide: the unique key keeps its name (409 CONFLICT) and treats nulls as equal.
alter table bra_controls add column bra_risk_scenario_id uuid;
alter table bra_controls add constraint bra_controls_scenario_fkey
  foreign key (enterprise_id, bra_id, bra_risk_scenario_id) references bra_risk_scenarios (enterprise_id, bra_id, id);
alter table bra_controls drop constraint bra_controls_sub_control_key;
alter table bra_controls add constraint bra_controls_sub_control_key
  unique nulls not distinct (enterprise_id, bra_id, bra_risk_scenario_id, sub_control_id);
create index bra_controls_scenario_idx on bra_controls (enterprise_id, bra_risk_scenario_id) where bra_risk_scenario_id is not null;

-- The risk register and the dashboard: the newest approved BRA of each legal entity / business unit, and
-- the open actions of a scenario link.
create index bras_approved_place_idx on bras (enterprise_id, legal_entity_id, business_unit_id, approved_at desc, id desc)
  where status = 'approved';
create index mitigation_actions_scenario_idx on mitigation_actions (enterprise_id, bra_risk_scenario_id)
  where bra_risk_scenario_id is not null and not archived;

-- A snapshot also pins the BRA's mitigation actions as they stood (the report of an approved BRA is built
-- from its snapshot alone). Null in snapshots taken before this column existed.
alter table bra_snapshots add column actions jsonb;

-- Exports of the risk register and of BRA reports are audited as `export`.
alter table audit_log drop constraint audit_log_action_type_check;
alter table audit_log add constraint audit_log_action_type_check check (action_type in
  ('create', 'update', 'delete', 'approve', 'cancel', 'login', 'logout', 'access_denied', 'export'));
