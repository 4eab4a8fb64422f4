-- Notifications (issue 49): what the service tells a person in the console. Owned by src/modules/notifications.
-- A notification is written in the transaction of the change it tells of, for each recipient, and only ever
-- marked read afterwards.
create table notifications (
  id uuid not null default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  user_id uuid not null references users (id),
  kind text not null
    constraint notifications_kind_check check (kind in ('bra_submitted', 'bra_returned', 'bra_approved', 'bra_cancelled', 'bra_commented')),
  bra_id uuid not null,
  title text not null constraint notifications_title_check check (char_length(title) between 1 and 500),
  body text constraint notifications_body_check check (char_length(body) between 1 and 5000),
  -- Who caused it (null: the service).
  actor_id uuid references users (id),
  created_at timestamptz not null default clock_timestamp(),
  read_at timestamptz,
  -- Sharding-ready (docs/scaling-sharding.md): the tenant is part of every key.
  constraint notifications_pkey primary key (id, enterprise_id),
  constraint notifications_bra_fkey foreign key (enterprise_id, bra_id) references bras (enterprise_id, id)
);

-- A person's notifications, newest first (the list), and the unread ones (the count and "mark all read").
create index notifications_user_idx on notifications (enterprise_id, user_id, created_at desc, id desc);
create index notifications_unread_idx on notifications (enterprise_id, user_id) where read_at is null;
