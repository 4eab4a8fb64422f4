-- Ready for sharding by tenant (docs/scaling-sharding.md): every tenant table is distributed by enterprise_id in
-- Citus's model, so its primary key, its unique constraints and its foreign keys to other tenant tables
-- must all include enterprise_id. The foreign keys already did (every one is composite); this brings the
-- keys into line. test/architecture/sharding-ready.test.ts checks every table of the migrations.
--
-- Primary keys become (id, enterprise_id): id first, so that every lookup by id alone (the dispatcher's,
-- the sweeps') still walks the primary key's index; enterprise_id in it, so that a shard can enforce it.
-- The former unique (enterprise_id, id) constraints, which the composite foreign keys pointed at, are the
-- same set of columns: they are dropped and the foreign keys recreated, with their names, actions and
-- deferral unchanged (pg_get_constraintdef), so that they rest on the primary key.
do $$
declare
  tenant_table text;
  duplicate record;
  dependent record;
  saved_tables text[];
  saved_names text[];
  saved_definitions text[];
begin
  foreach tenant_table in array array[
    'enterprise_members', 'legal_entities', 'business_units', 'entity_roles', 'risk_scenarios',
    'risk_appetites', 'risk_appetite_history', 'bras', 'key_controls', 'sub_controls',
    'bra_risk_scenarios', 'bra_controls', 'bra_ratings', 'bra_snapshots', 'mitigation_actions',
    'webhook_endpoints', 'webhook_deliveries', 'sub_control_tests'
  ] loop
    -- Fails (and so the migration) if a foreign key still rests on the primary key of id alone.
    execute format('alter table %I drop constraint %I, add constraint %I primary key (id, enterprise_id)',
      tenant_table, tenant_table || '_pkey', tenant_table || '_pkey');

    for duplicate in
      select c.conname, c.conindid from pg_constraint c
      where c.conrelid = tenant_table::regclass and c.contype = 'u'
        and (select array_agg(a.attname::text order by a.attname) from pg_attribute a
             where a.attrelid = c.conrelid and a.attnum = any (c.conkey)) = array['enterprise_id', 'id']
    loop
      saved_tables := '{}'; saved_names := '{}'; saved_definitions := '{}';
      for dependent in
        select f.conrelid::regclass::text as on_table, f.conname, pg_get_constraintdef(f.oid) as definition
        from pg_constraint f where f.contype = 'f' and f.conindid = duplicate.conindid
      loop
        saved_tables := saved_tables || dependent.on_table;
        saved_names := saved_names || dependent.conname::text;
        saved_definitions := saved_definitions || dependent.definition;
        execute format('alter table %s drop constraint %I', dependent.on_table, dependent.conname);
      end loop;
      execute format('alter table %I drop constraint %I', tenant_table, duplicate.conname);
      for i in 1 .. coalesce(array_length(saved_names, 1), 0) loop
        execute format('alter table %s add constraint %I %s', saved_tables[i], saved_names[i], saved_definitions[i]);
      end loop;
    end loop;
  end loop;
end;
$$;

-- The outbox is ordered by its identity column; the dispatcher reads it in that order across enterprises.
alter table event_outbox drop constraint event_outbox_pkey, add constraint event_outbox_pkey primary key (seq, enterprise_id);

-- A business unit's name is unique in its legal entity, which belongs to one enterprise: the same rule.
drop index business_units_name_key;
create unique index business_units_name_key on business_units (enterprise_id, legal_entity_id, name_key(name))
  where archived_at is null;

-- An event is queued once per endpoint (the dispatcher's ON CONFLICT names these columns).
alter table webhook_deliveries drop constraint webhook_deliveries_event_key,
  add constraint webhook_deliveries_event_key unique (enterprise_id, endpoint_id, event_id);
