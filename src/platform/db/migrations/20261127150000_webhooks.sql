-- Webhooks. Two owners: the transactional outbox is the platform's (platform/events: every module writes
-- its events there inside its own transaction), the endpoints and their deliveries are the webhooks module's.

-- Events waiting to be fanned out to the endpoints that subscribe to them. A row is written in the same
-- transaction as the change it announces (a rolled-back change leaves none) and removed by the dispatcher
-- once it has become deliveries, so the table holds only what is not yet dispatched. `seq` orders the
-- events (and their deliveries, per endpoint); `body` is the JSON text sent and signed, byte for byte.
create table event_outbox (
  seq bigint generated always as identity primary key,
  id uuid not null default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  type text not null,
  body text not null,
  created_at timestamptz not null default now()
);

-- Keys of events that must be announced once only (an action overdue for a given due date): written with
-- the event, in its transaction; kept after the event is dispatched.
create table event_keys (
  enterprise_id uuid not null references enterprises (id),
  key text not null,
  created_at timestamptz not null default now(),
  constraint event_keys_pkey primary key (enterprise_id, key)
);

create table webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  url text not null,
  event_types text[] not null,
  description text,
  enabled boolean not null default true,
  -- The signing secret ('whsec_' + base64); the one before a rotation signs too until it expires.
  secret text not null,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  -- Since when deliveries to it have failed without a success in between; null while healthy.
  failing_since timestamptz,
  -- Why the service disabled it (24 h of failures); null when enabled or disabled by an admin.
  disabled_reason text,
  -- A dispatcher instance's claim on the endpoint, so that one instance at a time delivers to it, in order.
  lease_until timestamptz,
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint webhook_endpoints_enterprise_id_key unique (enterprise_id, id),
  constraint webhook_endpoints_event_types_check check (cardinality(event_types) > 0),
  constraint webhook_endpoints_previous_secret_check check ((previous_secret is null) = (previous_secret_expires_at is null))
);
create index webhook_endpoints_list_idx on webhook_endpoints (enterprise_id, created_at desc, id desc);
-- The fan-out looks up the enabled endpoints of an event's enterprise.
create index webhook_endpoints_enabled_idx on webhook_endpoints (enterprise_id) where enabled;

create table webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  enterprise_id uuid not null,
  endpoint_id uuid not null,
  -- The event's id is the webhook-id header: the same on every attempt, so receivers can drop duplicates.
  event_id uuid not null,
  event_type text not null,
  body text not null,
  seq bigint not null,
  status text not null default 'pending'
    constraint webhook_deliveries_status_check check (status in ('pending', 'delivered', 'failed')),
  attempt_count integer not null default 0,
  last_status_code integer,
  last_error text,
  last_attempt_at timestamptz,
  first_attempt_at timestamptz,
  next_attempt_at timestamptz not null,
  delivered_at timestamptz,
  created_at timestamptz not null default now(),
  constraint webhook_deliveries_endpoint_fkey foreign key (enterprise_id, endpoint_id)
    references webhook_endpoints (enterprise_id, id) on delete cascade,
  constraint webhook_deliveries_event_key unique (endpoint_id, event_id)
);
-- The dispatcher's queue: per endpoint, the oldest pending delivery first.
create index webhook_deliveries_queue_idx on webhook_deliveries (endpoint_id, seq) where status = 'pending';
-- The deliveries list of an endpoint, newest first.
create index webhook_deliveries_list_idx on webhook_deliveries (endpoint_id, seq desc);
