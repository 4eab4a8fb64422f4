-- The sub-control list's additive paging and search (GET /controls/sub-controls?q=&limit=&cursor=): a
-- tenant's library can hold hundreds of thousands of sub-controls, and the console's finder asks for one
-- page of a search instead of the whole list. Owned by src/modules/controls (sub-controls.repository.ts).

-- The keyset order of the list with archived ones too (archived=true): newest first, id breaking ties.
-- Without archived ones, sub_controls_list_idx (enterprise_id, archived, created_at desc, id desc) serves it.
create index sub_controls_created_idx on sub_controls (enterprise_id, created_at desc, id desc);

-- The search (name or description contains q, case-insensitively: ILIKE '%q%'), which no btree can serve.
-- Trigrams (pg_trgm) make the substring searchable; btree_gin lets the same GIN index hold enterprise_id,
-- so a search reads its own tenant's candidates only, not every tenant's rows that share the trigrams. Both
-- are contrib extensions shipped with PostgreSQL (and with the embedded engine's binaries), and trusted since
-- PostgreSQL 13: the database's owner, who runs the migrations, may create them.
create extension if not exists pg_trgm;
create extension if not exists btree_gin;
create index sub_controls_search_idx on sub_controls using gin (enterprise_id, name gin_trgm_ops, description gin_trgm_ops);
