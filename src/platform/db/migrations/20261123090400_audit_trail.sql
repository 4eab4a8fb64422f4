-- The audit trail's search, export, verification and signed checkpoints (interface 4.6, D7.5, D7.6).

-- Every enterprise's chain is numbered 1, 2, 3 … without gaps (nothing is ever deleted), and the writer
-- gives each entry a created_at never earlier than its predecessor's, so chain order is time order. The
-- head keeps the last created_at for that.
alter table audit_chain_heads add column last_created_at timestamptz;

-- Search and export read in chain order (newest first = chain_seq descending). An attribute filter walks
-- its own index in chain order; a date range becomes a chain_seq range (through audit_log_list_idx).
drop index audit_log_user_idx;
drop index audit_log_action_idx;
drop index audit_log_entity_idx;
create index audit_log_user_seq_idx on audit_log (enterprise_id, user_id, chain_seq);
create index audit_log_action_seq_idx on audit_log (enterprise_id, action_type, chain_seq);
create index audit_log_entity_seq_idx on audit_log (enterprise_id, entity_type, chain_seq);

-- Signed checkpoints of a chain head (D7.5): the service signs (Ed25519) with a key the database does
-- not hold, so a chain rewritten with recomputed hashes no longer matches a checkpoint taken before.
-- enterprise_id null: the platform trail.
create table audit_checkpoints (
  id uuid primary key default gen_random_uuid(),
  enterprise_id uuid references enterprises (id),
  chain_seq bigint not null,
  last_entry_id uuid not null,
  last_hash text not null,
  entry_count bigint not null,
  signed_at timestamptz not null,
  algorithm text not null constraint audit_checkpoints_algorithm_check check (algorithm = 'Ed25519'),
  key_id text not null,
  public_key text not null,
  signature text not null
);
create index audit_checkpoints_list_idx on audit_checkpoints (enterprise_id, signed_at desc, id desc);
create index audit_checkpoints_chain_idx on audit_checkpoints (enterprise_id, chain_seq);

create trigger audit_checkpoints_immutable before update or delete on audit_checkpoints
  for each row execute function audit_log_refuse_change();
create trigger audit_checkpoints_no_truncate before truncate on audit_checkpoints
  for each statement execute function audit_log_refuse_change();
