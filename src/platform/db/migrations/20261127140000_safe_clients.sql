-- Safe clients: a version per changeable resource (the ETag's first part, checked under the row lock by
-- If-Match) and the stored first answers of Idempotency-Key requests.

-- row_version: 1 at insert, one more at every UPDATE of the row, whoever writes it (a BEFORE trigger, so
-- RETURNING sees the new value and no writer can forget it).
create function bump_row_version() returns trigger language plpgsql as $$
begin
  new.row_version := old.row_version + 1;
  return new;
end;
$$;

alter table bras add column row_version bigint not null default 1;
alter table mitigation_actions add column row_version bigint not null default 1;
alter table key_controls add column row_version bigint not null default 1;
alter table sub_controls add column row_version bigint not null default 1;
alter table enterprises add column row_version bigint not null default 1;
alter table system_alerts add column row_version bigint not null default 1;
alter table risk_appetites add column row_version bigint not null default 1;

create trigger bras_row_version before update on bras for each row execute function bump_row_version();
create trigger mitigation_actions_row_version before update on mitigation_actions for each row execute function bump_row_version();
create trigger key_controls_row_version before update on key_controls for each row execute function bump_row_version();
create trigger sub_controls_row_version before update on sub_controls for each row execute function bump_row_version();
create trigger enterprises_row_version before update on enterprises for each row execute function bump_row_version();
create trigger system_alerts_row_version before update on system_alerts for each row execute function bump_row_version();
create trigger risk_appetites_row_version before update on risk_appetites for each row execute function bump_row_version();

-- A BRA's representation includes its scenarios, ratings and control links: any change to them is a new
-- version of the BRA. The UPDATE takes the BRA's row lock, so a change to its content and an If-Match
-- change of the BRA itself are serialised.
create function bump_parent_bra_version() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    update bras set row_version = row_version + 1 where id = old.bra_id and enterprise_id = old.enterprise_id;
    return old;
  end if;
  update bras set row_version = row_version + 1 where id = new.bra_id and enterprise_id = new.enterprise_id;
  return new;
end;
$$;

create trigger bra_risk_scenarios_bra_version after insert or update or delete on bra_risk_scenarios
  for each row execute function bump_parent_bra_version();
create trigger bra_ratings_bra_version after insert or update or delete on bra_ratings
  for each row execute function bump_parent_bra_version();
create trigger bra_controls_bra_version after insert or update or delete on bra_controls
  for each row execute function bump_parent_bra_version();

-- The first answer to a request with an Idempotency-Key, per caller and key, kept 24 hours. Written in the
-- same transaction as the change it answers: either both are stored or neither.
create table idempotency_keys (
  user_id uuid not null,
  idempotency_key text not null,
  -- SHA-256 of method, path and body: the same key with another request is refused (422).
  fingerprint text not null,
  response_status integer not null,
  response_headers jsonb not null,
  response_body text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  constraint idempotency_keys_pkey primary key (user_id, idempotency_key),
  constraint idempotency_keys_key_length check (char_length(idempotency_key) between 1 and 255)
);

-- The sweep deletes by expiry.
create index idempotency_keys_expires_at_idx on idempotency_keys (expires_at);
