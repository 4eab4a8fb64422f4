-- The tables that several domain modules point at, created together so that each module can build on
-- them: the control library (owned by the controls module) and a BRA's scenario links (owned by the BRA
-- module; mitigation actions and ratings refer to them). Every foreign key includes enterprise_id.

create table key_controls (
  id uuid primary key default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  name text not null,
  description text,
  archived boolean not null default false,
  archived_at timestamptz,
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint key_controls_enterprise_id_key unique (enterprise_id, id)
);
create index key_controls_list_idx on key_controls (enterprise_id, archived, created_at desc, id desc);

create table sub_controls (
  id uuid primary key default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  key_control_id uuid not null,
  name text not null,
  description text,
  tod text constraint sub_controls_tod_check check (tod in ('A', 'B', 'C', 'D', 'E')),
  toe text constraint sub_controls_toe_check check (toe in ('1', '2', '3', '4', '5')),
  -- Computed by the service from tod and toe (3.5); null while either is unset (D7.1).
  total_effectiveness text constraint sub_controls_total_effectiveness_check check (total_effectiveness in
    ('Highly Effective', 'Effective', 'Moderately Effective', 'Less Effective', 'Not Effective')),
  testing_date date,
  tested_by text,
  evidence_notes text,
  tod_justification text,
  toe_justification text,
  archived boolean not null default false,
  archived_at timestamptz,
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint sub_controls_enterprise_id_key unique (enterprise_id, id),
  constraint sub_controls_key_control_fkey foreign key (enterprise_id, key_control_id)
    references key_controls (enterprise_id, id),
  constraint sub_controls_effectiveness_set_check check ((tod is null or toe is null) = (total_effectiveness is null))
);
create index sub_controls_key_control_idx on sub_controls (enterprise_id, key_control_id, created_at desc, id desc);
create index sub_controls_list_idx on sub_controls (enterprise_id, archived, created_at desc, id desc);

-- A catalogue scenario added to a BRA (D6.4). (enterprise_id, bra_id, id) is unique so that ratings and
-- mitigation actions can require, in their foreign keys, that a link belongs to the BRA they name.
create table bra_risk_scenarios (
  id uuid primary key default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  bra_id uuid not null,
  risk_scenario_id uuid not null,
  included boolean not null default true,
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint bra_risk_scenarios_enterprise_id_key unique (enterprise_id, id),
  constraint bra_risk_scenarios_bra_link_key unique (enterprise_id, bra_id, id),
  constraint bra_risk_scenarios_scenario_key unique (enterprise_id, bra_id, risk_scenario_id),
  constraint bra_risk_scenarios_bra_fkey foreign key (enterprise_id, bra_id) references bras (enterprise_id, id),
  constraint bra_risk_scenarios_risk_scenario_fkey foreign key (enterprise_id, risk_scenario_id)
    references risk_scenarios (enterprise_id, id)
);
