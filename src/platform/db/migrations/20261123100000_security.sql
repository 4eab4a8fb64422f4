-- Names are unique after Unicode NFKC normalisation, removal of zero-width characters, whitespace
-- collapsing and lower-casing: "Ｎｏｒｔｈ  Bank", "north bank" and "North\u00a0Bank" are one name.
-- Every name-uniqueness index uses this one function. normalize(), regexp_replace(), btrim() and lower()
-- are all IMMUTABLE (PostgreSQL 13 and later), so the function may be declared IMMUTABLE and used in
-- index expressions. NFKC turns the Unicode spaces (no-break, ideographic, en/em, ...) into U+0020.
create function name_key(name text) returns text
  language sql immutable strict parallel safe
  return lower(btrim(regexp_replace(
    regexp_replace(normalize(name, NFKC), '[\u200b-\u200d\u2060\ufeff]', '', 'g'),
    '\s+', ' ', 'g')));

drop index enterprises_name_key;
create unique index enterprises_name_key on enterprises (name_key(name));
drop index legal_entities_name_key;
create unique index legal_entities_name_key on legal_entities (enterprise_id, name_key(name));
drop index business_units_name_key;
create unique index business_units_name_key on business_units (legal_entity_id, name_key(name));
drop index risk_scenarios_name_key;
create unique index risk_scenarios_name_key on risk_scenarios (enterprise_id, name_key(name));
drop index bras_name_key;
create unique index bras_name_key on bras (enterprise_id, name_key(name));

-- Alerts are deduplicated by a fixed-size key (the SHA-256 of the cause, computed by the writer), so
-- that no cause, however long, can exceed the index's row size and poison the alert queue.
alter table system_alerts add column cause_key text;
update system_alerts set cause_key = encode(sha256(convert_to(cause, 'UTF8')), 'hex');
alter table system_alerts alter column cause_key set not null;
drop index system_alerts_unresolved_key;
create unique index system_alerts_unresolved_key on system_alerts (type, enterprise_id, cause_key) nulls not distinct
  where status <> 'resolved';

-- The embedded provider's ES256 signing keys. Exactly one signs (retired_at null); a retired key stays
-- published and verifies until verify_until, when the last token it signed has expired.
create table auth_signing_keys (
  kid text primary key,
  -- null for a key an operator supplies (AUTH_SIGNING_KEY, AUTH_SIGNING_KEY_FILE): it stays where they keep it.
  private_jwk jsonb,
  public_jwk jsonb not null,
  -- 'generated', or where an operator supplied it ('AUTH_SIGNING_KEY', 'AUTH_SIGNING_KEY_FILE').
  source text not null,
  created_at timestamptz not null default now(),
  retired_at timestamptz,
  verify_until timestamptz,
  constraint auth_signing_keys_retired_check check ((retired_at is null) = (verify_until is null))
);
create unique index auth_signing_keys_active_key on auth_signing_keys ((true)) where retired_at is null;
insert into auth_signing_keys (kid, private_jwk, public_jwk, source, created_at)
  select value ->> 'kid', value -> 'privateJwk', value -> 'publicJwk', 'generated', created_at
  from platform_secrets where name = 'auth.signing_key';
delete from platform_secrets where name = 'auth.signing_key';
