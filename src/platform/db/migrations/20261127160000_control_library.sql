-- Which catalogue scenarios a key control mitigates. The starter control library links its controls to the
-- starter catalogue's scenarios by name when an enterprise loads it.
create table key_control_risk_scenarios (
  enterprise_id uuid not null references enterprises (id),
  key_control_id uuid not null,
  risk_scenario_id uuid not null,
  created_at timestamptz not null default now(),
  constraint key_control_risk_scenarios_pkey primary key (enterprise_id, key_control_id, risk_scenario_id),
  constraint key_control_risk_scenarios_key_control_fkey foreign key (enterprise_id, key_control_id)
    references key_controls (enterprise_id, id),
  constraint key_control_risk_scenarios_risk_scenario_fkey foreign key (enterprise_id, risk_scenario_id)
    references risk_scenarios (enterprise_id, id)
);
create index key_control_risk_scenarios_scenario_idx on key_control_risk_scenarios (enterprise_id, risk_scenario_id);

-- A control library loaded into an enterprise: the starter library is loaded at most once (the key).
create table control_library_loads (
  enterprise_id uuid not null references enterprises (id),
  library text not null,
  key_control_count integer not null,
  loaded_by uuid references users (id),
  loaded_at timestamptz not null default now(),
  constraint control_library_loads_pkey primary key (enterprise_id, library)
);
