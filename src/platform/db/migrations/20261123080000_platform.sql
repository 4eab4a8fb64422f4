-- Platform tables: tenants, identities, sessions, access, the audit trail and system alerts.
-- Every tenant-owned table carries enterprise_id (the distribution key should we ever shard by tenant)
-- and every foreign key between tenant tables includes it, so a row can never point across tenants.

create table enterprises (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  country char(2) not null constraint enterprises_country_check check (country ~ '^[A-Z]{2}$'),
  registration_number text,
  status text not null default 'active'
    constraint enterprises_status_check check (status in ('active', 'inactive')),
  subscription_tier text not null default 'starter'
    constraint enterprises_tier_check check (subscription_tier in ('starter', 'professional', 'enterprise')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index enterprises_name_key on enterprises (lower(name));
create index enterprises_list_idx on enterprises (created_at desc, id desc);
create index enterprises_status_list_idx on enterprises (status, created_at desc, id desc);

-- Identities are platform-wide: a super admin belongs to no enterprise.
create table users (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  full_name text not null,
  password_hash text,
  is_super_admin boolean not null default false,
  active boolean not null default true,
  -- The `sub` of an external identity provider, linked on first sight by verified e-mail.
  external_subject text constraint users_external_subject_key unique,
  last_sign_in_at timestamptz,
  deactivated_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- An e-mail (case-insensitive) belongs to at most one active user (D9.3).
create unique index users_active_email_key on users (lower(email)) where active;

create table enterprise_members (
  id uuid primary key default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  user_id uuid not null references users (id),
  role text not null constraint enterprise_members_role_check check (role in ('admin', 'assessor', 'reviewer')),
  active boolean not null default true,
  created_at timestamptz not null default now(),
  deactivated_at timestamptz,
  constraint enterprise_members_enterprise_user_key unique (enterprise_id, user_id)
);
-- A user has at most one active membership: the token names a user, the membership names the tenant.
create unique index enterprise_members_active_user_key on enterprise_members (user_id) where active;
create index enterprise_members_list_idx on enterprise_members (enterprise_id, created_at desc, id desc);

create table legal_entities (
  id uuid primary key default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  name text not null,
  description text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint legal_entities_enterprise_id_key unique (enterprise_id, id)
);
create unique index legal_entities_name_key on legal_entities (enterprise_id, lower(name));
create index legal_entities_list_idx on legal_entities (enterprise_id, created_at desc, id desc);

create table business_units (
  id uuid primary key default gen_random_uuid(),
  enterprise_id uuid not null,
  legal_entity_id uuid not null,
  name text not null,
  created_at timestamptz not null default now(),
  constraint business_units_legal_entity_fkey foreign key (enterprise_id, legal_entity_id)
    references legal_entities (enterprise_id, id),
  constraint business_units_scope_key unique (enterprise_id, legal_entity_id, id)
);
create unique index business_units_name_key on business_units (legal_entity_id, lower(name));

-- Entity access of assessors and reviewers (D5 "assigned"). A null business unit covers the whole entity.
create table entity_roles (
  id uuid primary key default gen_random_uuid(),
  enterprise_id uuid not null,
  user_id uuid not null,
  legal_entity_id uuid not null,
  business_unit_id uuid,
  created_at timestamptz not null default now(),
  constraint entity_roles_member_fkey foreign key (enterprise_id, user_id)
    references enterprise_members (enterprise_id, user_id),
  constraint entity_roles_legal_entity_fkey foreign key (enterprise_id, legal_entity_id)
    references legal_entities (enterprise_id, id),
  -- The business unit must belong to the legal entity: enforced by the composite key.
  constraint entity_roles_business_unit_fkey foreign key (enterprise_id, legal_entity_id, business_unit_id)
    references business_units (enterprise_id, legal_entity_id, id),
  constraint entity_roles_assignment_key unique nulls not distinct (enterprise_id, user_id, legal_entity_id, business_unit_id)
);
create index entity_roles_user_idx on entity_roles (user_id);

create table risk_scenarios (
  id uuid primary key default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  name text not null,
  category text not null,
  description text,
  created_at timestamptz not null default now(),
  constraint risk_scenarios_enterprise_id_key unique (enterprise_id, id)
);
create unique index risk_scenarios_name_key on risk_scenarios (enterprise_id, lower(name));
create index risk_scenarios_list_idx on risk_scenarios (enterprise_id, created_at desc, id desc);
create index risk_scenarios_category_idx on risk_scenarios (enterprise_id, category, created_at desc, id desc);

-- Sign-in sessions of the embedded identity provider. Access tokens carry session_id; a revoked session
-- refuses its access tokens at the API and its refresh tokens at the provider.
create table auth_sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id),
  created_at timestamptz not null default now(),
  refreshed_at timestamptz,
  revoked_at timestamptz,
  revoked_reason text
);
create index auth_sessions_user_idx on auth_sessions (user_id) where revoked_at is null;

-- Refresh tokens are stored only as SHA-256 hashes. A rotated token keeps its row (replaced_at set)
-- so that its reuse is recognised and revokes the whole session.
create table auth_refresh_tokens (
  id bigint generated always as identity primary key,
  session_id uuid not null references auth_sessions (id),
  token_hash text not null constraint auth_refresh_tokens_hash_key unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  replaced_at timestamptz
);
create index auth_refresh_tokens_session_idx on auth_refresh_tokens (session_id);

-- Generated secrets (signing keys, API keys) kept so that restarts and other instances share them.
create table platform_secrets (
  name text primary key,
  value jsonb not null,
  created_at timestamptz not null default now()
);

-- The audit trail (interface 2.9, D7.5). enterprise_id null is the platform trail.
create table audit_log (
  id uuid primary key,
  enterprise_id uuid references enterprises (id),
  chain_seq bigint not null,
  user_id uuid,
  user_email text,
  user_name text,
  action_type text not null constraint audit_log_action_type_check check (action_type in
    ('create', 'update', 'delete', 'approve', 'cancel', 'login', 'logout', 'access_denied')),
  entity_type text,
  entity_id uuid,
  action_details jsonb not null default '{}'::jsonb,
  ip_address text,
  user_agent text,
  status text not null constraint audit_log_status_check check (status in ('success', 'failed')),
  created_at timestamptz not null,
  prev_hash text not null,
  hash text not null,
  constraint audit_log_chain_key unique nulls not distinct (enterprise_id, chain_seq)
);
create index audit_log_list_idx on audit_log (enterprise_id, created_at desc, id desc);
create index audit_log_user_idx on audit_log (enterprise_id, user_id, created_at desc);
create index audit_log_action_idx on audit_log (enterprise_id, action_type, created_at desc);
create index audit_log_entity_idx on audit_log (enterprise_id, entity_type, created_at desc);

-- One row per chain: its last sequence number and hash. Writers lock the row (UPDATE) so that
-- concurrent transactions append one after another and the chain never forks.
create table audit_chain_heads (
  chain_key text primary key,
  last_seq bigint not null default 0,
  last_hash text not null
);

create function audit_log_refuse_change() returns trigger language plpgsql as $$
begin
  raise exception 'audit_log entries are immutable' using errcode = 'insufficient_privilege';
end;
$$;
create trigger audit_log_immutable before update or delete on audit_log
  for each row execute function audit_log_refuse_change();
create trigger audit_log_no_truncate before truncate on audit_log
  for each statement execute function audit_log_refuse_change();

create table system_alerts (
  id uuid primary key default gen_random_uuid(),
  type text not null constraint system_alerts_type_check check (type in
    ('enterprise_health', 'authentication', 'performance', 'database', 'system')),
  severity text not null constraint system_alerts_severity_check check (severity in ('info', 'warning', 'error', 'critical')),
  title text not null,
  message text not null,
  enterprise_id uuid references enterprises (id),
  -- What the alert is about (an account, an address, a route): one unresolved alert per type, enterprise and cause.
  cause text not null,
  status text not null default 'open' constraint system_alerts_status_check check (status in ('open', 'acknowledged', 'resolved')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  acknowledged_at timestamptz,
  acknowledged_by uuid references users (id),
  notes text,
  resolved_at timestamptz,
  resolved_by uuid references users (id),
  resolution text
);
create unique index system_alerts_unresolved_key on system_alerts (type, enterprise_id, cause) nulls not distinct
  where status <> 'resolved';
create index system_alerts_list_idx on system_alerts (created_at desc, id desc);
create index system_alerts_status_idx on system_alerts (status, created_at desc, id desc);
create index system_alerts_severity_idx on system_alerts (severity, created_at desc, id desc);
