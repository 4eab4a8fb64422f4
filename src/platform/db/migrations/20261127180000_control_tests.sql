-- Control assurance, second pass. A sub-control's tests as records: each complete test (POST .../tests),
-- each PATCH that changes tod, toe or testing_date and each creation with a result appends the resulting
-- state here, so the history is complete whichever way a result was entered; the results entered before
-- this migration become one `baseline` record each. Append-only like the audit trail: the service's role may
-- only insert and read (runtime-role.ts), and a trigger refuses changes for anyone else.
create table sub_control_tests (
  id uuid primary key default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  sub_control_id uuid not null,
  source text not null constraint sub_control_tests_source_check check (source in ('baseline', 'create', 'import', 'test', 'update')),
  tod text constraint sub_control_tests_tod_check check (tod in ('A', 'B', 'C', 'D', 'E')),
  toe text constraint sub_control_tests_toe_check check (toe in ('1', '2', '3', '4', '5')),
  total_effectiveness text constraint sub_control_tests_total_effectiveness_check check (total_effectiveness in
    ('Highly Effective', 'Effective', 'Moderately Effective', 'Less Effective', 'Not Effective')),
  testing_date date,
  tested_by text,
  evidence_notes text,
  tod_justification text,
  toe_justification text,
  recorded_by uuid references users (id),
  recorded_at timestamptz not null default clock_timestamp(),
  constraint sub_control_tests_sub_control_fkey foreign key (enterprise_id, sub_control_id)
    references sub_controls (enterprise_id, id)
);
insert into sub_control_tests (enterprise_id, sub_control_id, source, tod, toe, total_effectiveness, testing_date, tested_by,
  evidence_notes, tod_justification, toe_justification, recorded_by, recorded_at)
select enterprise_id, id, 'baseline', tod, toe, total_effectiveness, testing_date, tested_by, evidence_notes, tod_justification,
  toe_justification, null, updated_at
from sub_controls
where tod is not null or toe is not null or testing_date is not null;

create index sub_control_tests_history_idx on sub_control_tests (enterprise_id, sub_control_id, recorded_at desc, id desc);

create function sub_control_tests_refuse_change() returns trigger language plpgsql as $$
begin
  raise exception 'sub-control test records are immutable' using errcode = 'insufficient_privilege';
end $$;
create trigger sub_control_tests_immutable before update or delete on sub_control_tests
  for each row execute function sub_control_tests_refuse_change();
create trigger sub_control_tests_no_truncate before truncate on sub_control_tests
  for each statement execute function sub_control_tests_refuse_change();

-- Drill-down from the heat map and the effectiveness counts to the sub-controls behind them.
create index sub_controls_tod_toe_idx on sub_controls (enterprise_id, tod, toe) where tod is not null and toe is not null;
create index sub_controls_effectiveness_idx on sub_controls (enterprise_id, total_effectiveness);

-- Every audit entry about one record (GET /audit?entity_id=...), in chain order like the other filters.
create index audit_log_entity_id_seq_idx on audit_log (enterprise_id, entity_id, chain_seq);
