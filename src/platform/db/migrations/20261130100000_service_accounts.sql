-- Service accounts: an enterprise's integrations, which call the API with tokens that belong to no person
-- (decisions.md, "Service accounts and integration tokens"). Owned by src/modules/identity/service-accounts.
--
-- A service account is also an identity (a `users` row without a password or a membership, made through
-- the identity service): the records it creates name it in their created_by columns, which reference
-- users, and its audit entries carry its id and name. Its role and entity assignments live here, not in
-- enterprise_members and entity_roles: it is no member (it is not listed, counted or invited as one), and
-- a password session of its identity would have no membership (403).
create table service_accounts (
  id uuid not null constraint service_accounts_user_fkey references users (id),
  enterprise_id uuid not null references enterprises (id),
  name text not null,
  description text,
  role text not null constraint service_accounts_role_check check (role in ('admin', 'assessor', 'reviewer')),
  active boolean not null default true,
  deactivated_at timestamptz,
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  row_version bigint not null default 1,
  constraint service_accounts_pkey primary key (id, enterprise_id),
  constraint service_accounts_active_check check (active = (deactivated_at is null))
);
create unique index service_accounts_name_key on service_accounts (enterprise_id, name_key(name)) where active;
create index service_accounts_list_idx on service_accounts (enterprise_id, created_at desc, id desc);
-- Its assignments are part of what a client reads: replacing them updates the row too (its updated_at).
create trigger service_accounts_row_version before update
  on service_accounts for each row execute function bump_row_version();

-- The legal entities (or units) an assessor or reviewer service account is assigned to (D5 "assigned").
create table service_account_entities (
  id uuid not null default gen_random_uuid(),
  enterprise_id uuid not null,
  service_account_id uuid not null,
  legal_entity_id uuid not null,
  business_unit_id uuid,
  constraint service_account_entities_pkey primary key (id, enterprise_id),
  constraint service_account_entities_account_fkey foreign key (service_account_id, enterprise_id)
    references service_accounts (id, enterprise_id) on delete cascade,
  constraint service_account_entities_legal_entity_fkey foreign key (enterprise_id, legal_entity_id)
    references legal_entities (enterprise_id, id),
  constraint service_account_entities_business_unit_fkey foreign key (enterprise_id, legal_entity_id, business_unit_id)
    references business_units (enterprise_id, legal_entity_id, id),
  constraint service_account_entities_assignment_key
    unique nulls not distinct (enterprise_id, service_account_id, legal_entity_id, business_unit_id)
);

-- Tokens: `rsk_sa_<id>_<secret>`; only the SHA-256 of the secret is kept. The id in the token finds the row
-- by its primary key (id leads), before the enterprise is known.
create table service_account_tokens (
  id uuid not null default gen_random_uuid(),
  enterprise_id uuid not null,
  service_account_id uuid not null,
  name text not null,
  secret_hash text not null,
  -- The token's first characters, shown in lists so that a person can tell tokens apart.
  hint text not null,
  expires_at timestamptz not null,
  -- Addresses and CIDR ranges the token is accepted from; null: any.
  allowed_ips text[],
  last_used_at timestamptz,
  last_used_ip text,
  revoked_at timestamptz,
  revoked_by uuid references users (id),
  -- The token this one replaced by a rotation, which stops working at its (shortened) expiry.
  rotated_from uuid,
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  constraint service_account_tokens_pkey primary key (id, enterprise_id),
  constraint service_account_tokens_account_fkey foreign key (service_account_id, enterprise_id)
    references service_accounts (id, enterprise_id)
);
create index service_account_tokens_list_idx on service_account_tokens (enterprise_id, service_account_id, created_at desc, id desc);
