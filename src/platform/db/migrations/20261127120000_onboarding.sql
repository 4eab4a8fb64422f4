-- Team onboarding: one-time links of the embedded provider, a durable mail outbox, and the archiving of
-- legal entities, business units and risk scenarios.

-- Invitation (7 days) and recovery (1 hour) links. Only a SHA-256 of the token is kept; the token itself
-- is minted when its mail is sent (a new one at each attempt), so no table ever holds a usable link.
create table auth_one_time_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id),
  kind text not null constraint auth_one_time_tokens_kind_check check (kind in ('invite', 'recovery')),
  token_hash text constraint auth_one_time_tokens_hash_key unique,
  -- The enterprise an invitation is to (null: a super admin's, or a recovery), and who sent it.
  enterprise_id uuid references enterprises (id),
  invited_by uuid references users (id),
  redirect_to text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  -- A newer link of the same kind replaces this one (resending an invitation), or the user was deactivated.
  revoked_at timestamptz
);
create index auth_one_time_tokens_user_idx on auth_one_time_tokens (user_id, kind, created_at desc);

-- Mail is written here in the transaction of the change that causes it and sent after commit; a failed
-- attempt is retried with backoff until it succeeds, and a sent row is never sent again.
create table mail_outbox (
  id uuid primary key default gen_random_uuid(),
  recipient text not null,
  template text not null,
  data jsonb not null,
  one_time_token_id uuid references auth_one_time_tokens (id),
  created_at timestamptz not null default now(),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  -- A delivery round holds the row until then; a round that dies leaves it to the next after it.
  lease_until timestamptz,
  last_attempt_at timestamptz,
  last_error text,
  sent_at timestamptz,
  -- Not sent because it became pointless (its link was replaced or used before it went out).
  dropped_at timestamptz
);
create index mail_outbox_due_idx on mail_outbox (next_attempt_at) where sent_at is null and dropped_at is null;
create index mail_outbox_token_idx on mail_outbox (one_time_token_id);

-- Archiving: archived rows leave pickers and new BRAs; names stay unique among the active ones only.
alter table legal_entities add column archived_at timestamptz, add column archived_by uuid references users (id);
alter table business_units
  add column description text,
  add column updated_at timestamptz not null default now(),
  add column archived_at timestamptz,
  add column archived_by uuid references users (id);
alter table risk_scenarios
  add column updated_at timestamptz not null default now(),
  add column archived_at timestamptz,
  add column archived_by uuid references users (id);
drop index legal_entities_name_key;
create unique index legal_entities_name_key on legal_entities (enterprise_id, name_key(name)) where archived_at is null;
drop index business_units_name_key;
create unique index business_units_name_key on business_units (legal_entity_id, name_key(name)) where archived_at is null;
drop index risk_scenarios_name_key;
create unique index risk_scenarios_name_key on risk_scenarios (enterprise_id, name_key(name)) where archived_at is null;
-- Lists leave archived rows out by default: the active rows have list indexes of their own.
create index legal_entities_active_list_idx on legal_entities (enterprise_id, created_at desc, id desc) where archived_at is null;
create index risk_scenarios_active_list_idx on risk_scenarios (enterprise_id, created_at desc, id desc) where archived_at is null;
create index risk_scenarios_active_category_idx on risk_scenarios (enterprise_id, category, created_at desc, id desc)
  where archived_at is null;
