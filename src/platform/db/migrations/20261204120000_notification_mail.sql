-- Notification mail (issue 49): how each person hears of each kind of notification (immediate mail, the daily
-- digest, or only the console), the enterprise's defaults a client admin sets, and what mail already took.
-- Owned by src/modules/notifications.

-- The kinds a person may choose a delivery for (every kind of notification), and the deliveries.
create domain notification_kind as text check (value in (
  'bra_submitted', 'bra_returned', 'bra_approved', 'bra_cancelled', 'bra_commented',
  'action_assigned', 'action_due_soon', 'action_overdue', 'control_test_due', 'acceptance_expiring'));
create domain notification_delivery as text check (value in ('immediate', 'digest', 'off'));

-- A person's own choice per kind; absent: the enterprise's default, else the built-in one.
create table notification_preferences (
  enterprise_id uuid not null,
  user_id uuid not null,
  kind notification_kind not null,
  delivery notification_delivery not null,
  updated_at timestamptz not null default now(),
  constraint notification_preferences_pkey primary key (enterprise_id, user_id, kind),
  constraint notification_preferences_member_fkey foreign key (enterprise_id, user_id) references enterprise_members (enterprise_id, user_id)
);

-- The enterprise's default per kind, set by a client admin; absent: the built-in one.
create table notification_defaults (
  enterprise_id uuid not null references enterprises (id),
  kind notification_kind not null,
  delivery notification_delivery not null,
  updated_at timestamptz not null default now(),
  constraint notification_defaults_pkey primary key (enterprise_id, kind)
);

-- How a notification goes out by mail, decided when it is written (the recipient's effective preference
-- then), and when mail took it: at once for 'immediate' (its outbox row is written in the same statement),
-- by the daily digest round for 'digest' (which marks what it takes, so nothing is in two digests). The
-- notifications written before this migration were never mailed and never will be ('off').
alter table notifications
  add column delivery notification_delivery not null default 'off',
  add column mailed_at timestamptz;
alter table notifications alter column delivery drop default;

-- The digest round's work: what waits for it, per person.
create index notifications_digest_idx on notifications (enterprise_id, user_id, created_at) where delivery = 'digest' and mailed_at is null;
