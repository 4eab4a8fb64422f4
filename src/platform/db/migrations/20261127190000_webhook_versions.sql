-- Safe clients for webhook endpoints: a row version (If-Match on PATCH, DELETE and the secret's rotation),
-- bumped only by what a client sees change. The dispatcher's own bookkeeping (its lease, when failures
-- began) moves every round and must not make a client's ETag stale.
alter table webhook_endpoints add column row_version bigint not null default 1;
create trigger webhook_endpoints_row_version before update of url, event_types, description, enabled, secret, disabled_reason
  on webhook_endpoints for each row execute function bump_row_version();
