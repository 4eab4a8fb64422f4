-- Mitigation actions (interface 2.4, 4.4; D7.3), owned by the actions module. An action may name a BRA and,
-- within it, one of its scenario links: the composite foreign key requires that the link belongs to the
-- BRA named (bra_risk_scenarios is unique on (enterprise_id, bra_id, id)), and the CHECK that a link never
-- comes without its BRA. `is_overdue` is not stored: it depends on today's date and is computed at read.

create table mitigation_actions (
  id uuid primary key default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  action text not null,
  owner text not null,
  status text not null default 'created'
    constraint mitigation_actions_status_check check (status in ('created', 'in_progress', 'completed')),
  priority text not null
    constraint mitigation_actions_priority_check check (priority in ('low', 'medium', 'high', 'critical')),
  action_type text not null,
  due_date date not null,
  bra_id uuid,
  bra_risk_scenario_id uuid,
  -- Archiving sets the flag (3.2); it is not a status. Archived actions cannot be changed (D7.3).
  archived boolean not null default false,
  archived_at timestamptz,
  archived_by uuid references users (id),
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint mitigation_actions_enterprise_id_key unique (enterprise_id, id),
  constraint mitigation_actions_bra_fkey foreign key (enterprise_id, bra_id) references bras (enterprise_id, id),
  constraint mitigation_actions_scenario_fkey foreign key (enterprise_id, bra_id, bra_risk_scenario_id)
    references bra_risk_scenarios (enterprise_id, bra_id, id),
  constraint mitigation_actions_scenario_needs_bra_check check (bra_risk_scenario_id is null or bra_id is not null),
  constraint mitigation_actions_archived_check check (archived = (archived_at is not null))
);

-- One index per list filter (4.4), each ending in the list order (created_at desc, id desc, D2.5).
create index mitigation_actions_list_idx on mitigation_actions (enterprise_id, archived, created_at desc, id desc);
create index mitigation_actions_bra_idx on mitigation_actions (enterprise_id, bra_id, created_at desc, id desc);
create index mitigation_actions_status_idx on mitigation_actions (enterprise_id, status, created_at desc, id desc);
create index mitigation_actions_priority_idx on mitigation_actions (enterprise_id, priority, created_at desc, id desc);
-- The unlinked actions an assessor created (D5 scope).
create index mitigation_actions_creator_idx on mitigation_actions (enterprise_id, created_by, created_at desc, id desc)
  where bra_id is null;
-- overdue_only: only open (not completed, not archived) actions are indexed, in list order, with their due
-- date: the page walks the enterprise's open actions newest first and the count reads only those,
-- never the completed or archived history. (An index keyed on due_date alone loses to the list index
-- under LIMIT: the planner prefers an ordered walk of every unarchived action.)
create index mitigation_actions_open_idx on mitigation_actions (enterprise_id, created_at desc, id desc)
  include (due_date) where status <> 'completed' and not archived;
-- The enterprise_health check (D9.5) across enterprises: open high/critical actions by due date.
create index mitigation_actions_urgent_due_idx on mitigation_actions (due_date, enterprise_id)
  where status <> 'completed' and not archived and priority in ('high', 'critical');
