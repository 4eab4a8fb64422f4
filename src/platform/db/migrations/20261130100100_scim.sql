-- SCIM 2.0 provisioning (RFC 7643/7644) per enterprise (decisions.md, "SCIM provisioning"). Owned by
-- src/modules/identity/scim. The users SCIM provisions are the enterprise's members (enterprise_members and
-- users, changed through their owners' services); this holds what SCIM adds to them.

-- Bearer tokens of the enterprise's identity provider: `rsk_scim_<id>_<secret>`, the SHA-256 of the secret kept.
create table scim_tokens (
  id uuid not null default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  name text not null,
  secret_hash text not null,
  hint text not null,
  expires_at timestamptz,
  last_used_at timestamptz,
  last_used_ip text,
  revoked_at timestamptz,
  revoked_by uuid references users (id),
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  constraint scim_tokens_pkey primary key (id, enterprise_id)
);
create index scim_tokens_list_idx on scim_tokens (enterprise_id, created_at desc, id desc);

-- The members the directory manages, with the provider's own id for them (externalId).
create table scim_users (
  user_id uuid not null references users (id),
  enterprise_id uuid not null references enterprises (id),
  external_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint scim_users_pkey primary key (user_id, enterprise_id)
);
create unique index scim_users_external_id_key on scim_users (enterprise_id, external_id);

-- Groups the provider pushes. role null: not mapped (its members get nothing from it).
create table scim_groups (
  id uuid not null default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  display_name text not null,
  external_id text,
  role text constraint scim_groups_role_check check (role in ('assessor', 'reviewer')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  row_version bigint not null default 1,
  constraint scim_groups_pkey primary key (id, enterprise_id)
);
create unique index scim_groups_display_name_key on scim_groups (enterprise_id, lower(display_name));
create index scim_groups_list_idx on scim_groups (enterprise_id, lower(display_name), id);
-- Its entity assignments are part of its mapping: replacing them updates the row too (its updated_at).
create trigger scim_groups_row_version before update
  on scim_groups for each row execute function bump_row_version();

-- A mapped group's entity assignments, given to its members with its role.
create table scim_group_entities (
  id uuid not null default gen_random_uuid(),
  enterprise_id uuid not null,
  group_id uuid not null,
  legal_entity_id uuid not null,
  business_unit_id uuid,
  constraint scim_group_entities_pkey primary key (id, enterprise_id),
  constraint scim_group_entities_group_fkey foreign key (group_id, enterprise_id)
    references scim_groups (id, enterprise_id) on delete cascade,
  constraint scim_group_entities_legal_entity_fkey foreign key (enterprise_id, legal_entity_id)
    references legal_entities (enterprise_id, id),
  constraint scim_group_entities_business_unit_fkey foreign key (enterprise_id, legal_entity_id, business_unit_id)
    references business_units (enterprise_id, legal_entity_id, id),
  constraint scim_group_entities_assignment_key unique nulls not distinct (enterprise_id, group_id, legal_entity_id, business_unit_id)
);

create table scim_group_members (
  enterprise_id uuid not null,
  group_id uuid not null,
  user_id uuid not null references users (id),
  constraint scim_group_members_pkey primary key (group_id, user_id, enterprise_id),
  constraint scim_group_members_group_fkey foreign key (group_id, enterprise_id)
    references scim_groups (id, enterprise_id) on delete cascade
);
-- A member's groups (their role is derived from them).
create index scim_group_members_user_idx on scim_group_members (enterprise_id, user_id);

-- SCIM's userName filter looks members up by e-mail, active or not (users_active_email_key covers active ones only).
create index users_email_lookup_idx on users (lower(email));
