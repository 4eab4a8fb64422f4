-- The tables that administration already relies on: every new enterprise gets a default risk appetite
-- (D6.9), and the enterprise list counts BRAs (D9.1). The governance and BRA modules build on these.

create table risk_appetites (
  id uuid primary key default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  legal_entity_id uuid,
  business_unit_id uuid,
  risk_level text not null constraint risk_appetites_level_check check (risk_level in ('Low', 'Medium', 'High', 'Very High')),
  threshold_value integer not null constraint risk_appetites_threshold_check check (threshold_value between 1 and 25),
  description text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  updated_by uuid references users (id),
  constraint risk_appetites_enterprise_id_key unique (enterprise_id, id),
  constraint risk_appetites_legal_entity_fkey foreign key (enterprise_id, legal_entity_id)
    references legal_entities (enterprise_id, id),
  constraint risk_appetites_business_unit_fkey foreign key (enterprise_id, legal_entity_id, business_unit_id)
    references business_units (enterprise_id, legal_entity_id, id),
  constraint risk_appetites_unit_needs_entity_check check (business_unit_id is null or legal_entity_id is not null),
  constraint risk_appetites_scope_key unique nulls not distinct (enterprise_id, legal_entity_id, business_unit_id)
);

create table risk_appetite_history (
  id uuid primary key default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  -- Kept when an override is deleted: history outlives the record it describes.
  risk_appetite_id uuid not null,
  legal_entity_id uuid,
  business_unit_id uuid,
  previous_level text,
  new_level text,
  previous_threshold integer,
  new_threshold integer,
  changed_by uuid references users (id),
  changed_at timestamptz not null default now(),
  reason text
);
create index risk_appetite_history_list_idx on risk_appetite_history (enterprise_id, changed_at desc, id desc);

create table bras (
  id uuid primary key default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  name text not null,
  description text,
  legal_entity_id uuid not null,
  business_unit_id uuid,
  status text not null default 'draft'
    constraint bras_status_check check (status in ('draft', 'in_progress', 'under_review', 'approved', 'cancelled')),
  period text not null,
  assessor text not null,
  start_date date,
  completion_date date,
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  approved_by uuid references users (id),
  approved_at timestamptz,
  final_comment text,
  snapshot_id uuid,
  cancelled_by uuid references users (id),
  cancelled_at timestamptz,
  cancellation_reason text,
  constraint bras_enterprise_id_key unique (enterprise_id, id),
  constraint bras_legal_entity_fkey foreign key (enterprise_id, legal_entity_id)
    references legal_entities (enterprise_id, id),
  constraint bras_business_unit_fkey foreign key (enterprise_id, legal_entity_id, business_unit_id)
    references business_units (enterprise_id, legal_entity_id, id)
);
create unique index bras_name_key on bras (enterprise_id, lower(name));
create index bras_list_idx on bras (enterprise_id, created_at desc, id desc);
create index bras_status_idx on bras (enterprise_id, status, created_at desc, id desc);
create index bras_legal_entity_idx on bras (enterprise_id, legal_entity_id, created_at desc, id desc);
create index bras_business_unit_idx on bras (enterprise_id, business_unit_id, created_at desc, id desc);
