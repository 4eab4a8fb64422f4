-- Evidence files (issue 48): files behind a control test, a mitigation action, a BRA or one of its scenarios.
-- Owned by src/modules/evidence. The metadata lives here whatever the storage; the content lives in a store
-- (evidence_blobs below, or S3-compatible object storage), found by storage and storage_key.
--
-- A file never changes: removal only marks it (removed_at, removed_by), and its content stays, so that an
-- approved BRA's snapshot that lists it keeps pointing at the bytes it listed.
create table evidence_files (
  id uuid not null default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  record_type text not null
    constraint evidence_files_record_type_check check (record_type in ('sub_control_test', 'mitigation_action', 'bra', 'bra_scenario')),
  record_id uuid not null,
  name text not null constraint evidence_files_name_check check (length(name) between 1 and 255),
  media_type text not null,
  size_bytes bigint not null constraint evidence_files_size_check check (size_bytes >= 0),
  -- Hex SHA-256 of the content as received; the upload's audit entry carries it too (the chain protects it).
  sha256 text not null constraint evidence_files_sha256_check check (sha256 ~ '^[0-9a-f]{64}$'),
  storage text not null constraint evidence_files_storage_check check (storage in ('postgres', 's3')),
  storage_key text not null,
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  removed_at timestamptz,
  removed_by uuid references users (id),
  constraint evidence_files_pkey primary key (id, enterprise_id),
  constraint evidence_files_removed_check check ((removed_at is null) = (removed_by is null))
);
-- A record's files, newest first (the list); live ones only, as the list shows.
create index evidence_files_record_idx on evidence_files (enterprise_id, record_type, record_id, created_at desc, id desc)
  where removed_at is null;

-- The PostgreSQL store: a file's content in chunks of a fixed size, written as the upload streams in and read
-- back a chunk at a time, so neither holds a whole file in memory. Rows are never changed or deleted
-- (runtime-role.ts): a refused upload rolls back with its transaction.
create table evidence_blobs (
  enterprise_id uuid not null references enterprises (id),
  blob_key uuid not null,
  seq integer not null constraint evidence_blobs_seq_check check (seq >= 0),
  data bytea not null,
  constraint evidence_blobs_pkey primary key (blob_key, enterprise_id, seq)
);
