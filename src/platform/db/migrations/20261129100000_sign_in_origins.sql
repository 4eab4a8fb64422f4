-- Where each account recently signed in from (decisions.md, "Sign-in from devices seen before"): a keyed
-- hash of the client address and user agent of a successful sign-in, never the address itself. A password
-- sign-in from an origin listed here, recently, is counted against that origin's own budget instead of the
-- account's, so that strangers exhausting the account's budget do not keep its owner out. Bounded: the
-- provider keeps at most ten rows per user, pruning the oldest and the stale ones when it writes one.
-- Identities are platform-wide (a super admin has no enterprise): not a tenant table.
create table auth_sign_in_origins (
  user_id uuid not null constraint auth_sign_in_origins_user_fkey references users (id),
  origin_hash text not null,
  last_seen_at timestamptz not null default now(),
  constraint auth_sign_in_origins_pkey primary key (user_id, origin_hash)
);
