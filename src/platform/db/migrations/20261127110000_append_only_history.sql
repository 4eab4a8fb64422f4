-- Risk appetite history is a record of what the appetite was, like the audit trail: rows are only ever
-- added. The service's role also loses UPDATE, DELETE and TRUNCATE on it (runtime-role.ts); the trigger
-- holds for every role but a superuser who disables it.
create function append_only_refuse_change() returns trigger language plpgsql as $$
begin
  raise exception '% rows are append-only', tg_table_name using errcode = 'insufficient_privilege';
end;
$$;
create trigger risk_appetite_history_immutable before update or delete on risk_appetite_history
  for each row execute function append_only_refuse_change();
create trigger risk_appetite_history_no_truncate before truncate on risk_appetite_history
  for each statement execute function append_only_refuse_change();

-- A chain head only moves forward: the writer raises last_seq, then sets the new entry's hash at that
-- sequence. Moving it back (to hide a truncated tail) or renaming a chain is refused (a jump forward leaves a
-- gap that verify reports); deleting a head is refused too, and not granted to the service's role.
create function audit_chain_heads_forward_only() returns trigger language plpgsql as $$
begin
  if new.chain_key <> old.chain_key or new.last_seq < old.last_seq then
    raise exception 'audit chain heads only move forward' using errcode = 'insufficient_privilege';
  end if;
  return new;
end;
$$;
create trigger audit_chain_heads_forward before update on audit_chain_heads
  for each row execute function audit_chain_heads_forward_only();
create trigger audit_chain_heads_no_delete before delete on audit_chain_heads
  for each row execute function append_only_refuse_change();
create trigger audit_chain_heads_no_truncate before truncate on audit_chain_heads
  for each statement execute function append_only_refuse_change();
