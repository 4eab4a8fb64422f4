import { Type, type Static } from 'typebox';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES } from '../../platform/audit/audit-events.js';
import {
  CalendarDate,
  DataResponse,
  Nullable,
  PageOnly,
  Pagination,
  PaginationQuery,
  Timestamp,
  Uuid,
  csvMedia,
  errorResponses,
} from '../../platform/http/schemas.js';
import { CSV_COLUMNS } from './audit-export.js';

export const AuditEntryView = Type.Object({
  id: Uuid(),
  user_id: Nullable(Uuid('The acting user; null for actions of no known user (a refused sign-in of an unknown e-mail)')),
  user_email: Nullable(Type.String({ description: "The acting user's e-mail at the time" })),
  user_name: Nullable(Type.String({ description: "The acting user's full name at the time (D10.3)" })),
  action_type: Type.String({ description: `One of ${AUDIT_ACTIONS.join(', ')}` }),
  entity_type: Nullable(Type.String({ description: `One of ${AUDIT_ENTITY_TYPES.join(', ')}; null for sign-ins and refusals` })),
  entity_id: Nullable(Uuid('The changed resource')),
  action_details: Type.Record(Type.String(), Type.Unknown(), {
    description: 'Change-specific JSON; `operation` (first) names the API operation that made the change',
  }),
  ip_address: Nullable(Type.String({ description: 'Source address' })),
  user_agent: Nullable(Type.String({ description: 'User-Agent of the request' })),
  status: Type.Enum(['success', 'failed'], { description: 'failed for refusals (access_denied) and refused sign-ins' }),
  created_at: Timestamp('When the entry was written (never earlier than the entry before it in the trail)'),
});
export type AuditEntryView = Static<typeof AuditEntryView>;

const AuditFilters = {
  action_type: Type.Optional(Type.Enum([...AUDIT_ACTIONS], { description: 'Only entries of this action' })),
  entity_type: Type.Optional(Type.Enum([...AUDIT_ENTITY_TYPES], { description: 'Only entries about this kind of resource' })),
  user_id: Type.Optional(Uuid('Only entries of this acting user')),
  entity_id: Type.Optional(Uuid('Only entries about this record: every entry about one BRA, control, action, …')),
  start_date: Type.Optional(CalendarDate('Entries from this UTC date on (inclusive), YYYY-MM-DD')),
  end_date: Type.Optional(CalendarDate('Entries up to this UTC date (inclusive), YYYY-MM-DD')),
};

export const SearchAuditQuery = Type.Object({ ...AuditFilters, ...PaginationQuery });
export type SearchAuditQuery = Static<typeof SearchAuditQuery>;

export const ExportAuditQuery = Type.Object({
  ...AuditFilters,
  format: Type.Optional(Type.Enum(['json', 'csv'], { default: 'json', description: 'File format (default json)' })),
});
export type ExportAuditQuery = Static<typeof ExportAuditQuery>;

export const AuditPagination = Type.Object({
  ...Pagination.properties,
  total_is_estimate: Type.Boolean({
    description:
      'true when a filter on action_type, entity_type, user_id or entity_id matches more than 10,000 entries: `total` (and ' +
      '`total_pages`) is then the planner\'s estimate, never below 10,001; `has_next` is always exact',
  }),
});

export const VerificationView = Type.Object({
  valid: Type.Boolean({ description: 'true when every entry and every signed checkpoint agree' }),
  entries_checked: Type.Integer({ description: 'Entries read before the walk ended' }),
  first_invalid_id: Nullable(Uuid('The first entry that breaks the chain or disagrees with a checkpoint')),
  checkpoints_checked: Type.Integer({ description: 'Signed checkpoints the chain was checked against' }),
  failure: Nullable(
    Type.Enum(['hash_mismatch', 'broken_link', 'sequence_gap', 'checkpoint_mismatch', 'checkpoint_signature', 'missing_entries'], {
      description:
        'Why the chain is invalid: hash_mismatch (content changed), broken_link (prev_hash differs), sequence_gap (an ' +
        'entry missing), checkpoint_mismatch (the chain was rewritten since a checkpoint), checkpoint_signature (a ' +
        'checkpoint was altered), missing_entries (entries a checkpoint vouched for are gone)',
    }),
  ),
  evidence: Type.Optional(
    Type.Object(
      {
        files_checked: Type.Integer({ description: 'Evidence files hashed again, removed ones included (their content is kept)' }),
        altered: Type.Array(
          Type.Object({
            id: Uuid('The evidence file'),
            name: Type.String(),
            recorded_sha256: Nullable(Type.String({ description: "The SHA-256 its upload's audit entry recorded; null when no upload entry names it" })),
            stored_sha256: Type.String({ description: 'What its stored content hashes to now' }),
          }),
          { description: 'Files whose content no longer hashes to what their upload recorded: changed under the service' },
        ),
      },
      { description: 'Only with evidence=true: every evidence file of the enterprise hashed again against its upload’s audit entry (issue 48)' },
    ),
  ),
});

export const CheckpointView = Type.Object({
  id: Uuid(),
  enterprise_id: Uuid('The enterprise whose trail was signed'),
  chain_seq: Type.Integer({ description: 'Position of the last entry in the trail (1 is the first entry)' }),
  last_entry_id: Uuid('The last entry at signing time'),
  last_hash: Type.String({ description: "That entry's chain hash (hex SHA-256)" }),
  entry_count: Type.Integer({ description: 'Entries the trail held at signing time, from its first' }),
  signed_at: Timestamp('When the checkpoint was signed'),
  algorithm: Type.Literal('Ed25519'),
  key_id: Type.String({ description: 'First 16 hex digits of SHA-256 over the public key (SPKI DER)' }),
  public_key: Type.String({ description: 'The public key (SPKI PEM) that verifies the signature' }),
  signature: Type.String({
    description:
      'Base64 Ed25519 signature of "risk-assurance audit checkpoint v1\\n" followed by the canonical JSON (keys sorted, ' +
      'no spaces) of enterprise_id, chain_seq, last_entry_id, last_hash, entry_count and signed_at',
  }),
});
export type CheckpointView = Static<typeof CheckpointView>;

const SAMPLE_PUBLIC_KEY = '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAcSZHqs4TrHuB8mQh+zeFIV84ATEuh1zV5JVa/eRjF14=\n-----END PUBLIC KEY-----\n';
const PublicKeyPem = (description: string) => Type.String({ minLength: 1, maxLength: 1000, description, examples: [SAMPLE_PUBLIC_KEY] });

/** A checkpoint as GET /audit/checkpoints lists it, handed back by an auditor who kept it. */
export const KeptCheckpoint = Type.Object(
  {
    id: Type.Optional(Uuid('As listed; not signed, not used')),
    enterprise_id: Nullable(Uuid('The enterprise whose trail was signed; another enterprise (or null, the platform trail) is 404')),
    chain_seq: Type.Integer({ minimum: 1, description: 'Position of the last entry in the trail' }),
    last_entry_id: Uuid('The last entry at signing time'),
    last_hash: Type.String({ pattern: '^[0-9a-f]{64}$', description: "That entry's chain hash (hex SHA-256)", examples: ['9f2c'.repeat(16)] }),
    entry_count: Type.Integer({ minimum: 1, description: 'Entries the trail held at signing time' }),
    signed_at: Type.String({ format: 'date-time', description: 'As listed (the signed text holds it exactly)' }),
    algorithm: Type.Literal('Ed25519'),
    key_id: Type.String({
      pattern: '^[0-9a-f]{16}$',
      description: 'Picks the trusted key that checks the signature when no public_key is given beside the checkpoint',
      examples: ['b39bc968af943177'],
    }),
    public_key: Type.Optional(PublicKeyPem('As listed; never trusted on its own account (pin it as the top-level public_key)')),
    signature: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Base64 Ed25519 signature, as listed',
      examples: ['MkOi0xYn0RGoAH0Qn6T35qvYmSh3Ab2Jq3yBBUaTO4CqkWDxRCNJCVWru0jVBVp7yFYVo4C5VPiAw0smSUsFAA=='],
    }),
  },
  { additionalProperties: false },
);
export type KeptCheckpoint = Static<typeof KeptCheckpoint>;

export const VerifyCheckpointBody = Type.Object(
  {
    checkpoint: KeptCheckpoint,
    public_key: Type.Optional(
      PublicKeyPem(
        'The Ed25519 public key (SPKI PEM) the auditor trusts. Given: the signature must verify with it. Omitted: with the ' +
          "service's current key or an earlier key it still trusts, chosen by the checkpoint's key_id.",
      ),
    ),
  },
  { additionalProperties: false },
);
export type VerifyCheckpointBody = Static<typeof VerifyCheckpointBody>;

const TAGS = ['audit'];
const ROLES = 'Client admins and reviewers (the whole enterprise); assessors and super admins get 403 (D5).';

export const searchAuditSchema = {
  summary: 'Search the audit trail',
  description:
    `The enterprise's audit entries, newest first (trail order), filtered by action, entity type, user and inclusive ` +
    `UTC dates. ${ROLES} The platform trail (super admins' changes) is never listed.`,
  operationId: 'audit.search',
  tags: TAGS,
  querystring: SearchAuditQuery,
  response: { 200: PageOnly(AuditEntryView, { description: 'One page of entries', pagination: AuditPagination }), ...errorResponses([]) },
};

export const exportAuditSchema = {
  summary: 'Export the audit trail as a file',
  description:
    `The entries the same filters select, newest first, streamed as a download (D7.6): JSON (an array of entries, ` +
    `the default) or CSV (columns id, created_at, user_id, user_email, user_name, action_type, entity_type, entity_id, ` +
    `status, ip_address, user_agent, action_details). File name audit-export-<YYYYMMDD>.<json|csv>. ${ROLES}`,
  operationId: 'audit.export',
  tags: TAGS,
  querystring: ExportAuditQuery,
  produces: ['application/json', 'text/csv'],
  response: {
    200: {
      description: 'The file, streamed',
      content: {
        'application/json': { schema: Type.Array(AuditEntryView) },
        'text/csv': csvMedia(CSV_COLUMNS),
      },
    },
    ...errorResponses([]),
  },
};

export const verifyAuditSchema = {
  summary: "Verify the enterprise's audit hash chain",
  description:
    `Recomputes every entry's hash in trail order (in batches) and checks the chain against the signed checkpoints, ` +
    `so that a trail rewritten with recomputed hashes is still detected (D7.5). ${ROLES}`,
  operationId: 'audit.verify',
  tags: TAGS,
  querystring: Type.Object({
    evidence: Type.Optional(
      Type.Boolean({ description: 'true: also hash every evidence file again and compare it with its upload’s audit entry (reads all their content)' }),
    ),
  }),
  response: { 200: Type.Object({ data: VerificationView }), ...errorResponses([]) },
};

export const verifyCheckpointSchema = {
  summary: 'Verify the audit trail against a checkpoint you kept',
  description:
    `Checks that today's trail still holds exactly the head a checkpoint signed (as GET /audit/checkpoints listed it), ` +
    `even if the trail and the stored checkpoints were rewritten since. The signature must verify with the public_key ` +
    `given beside the checkpoint, else with a key the service trusts; otherwise 422. A checkpoint of another ` +
    `enterprise is 404. The chain is then walked as GET /audit/verify walks it, with the kept checkpoint as one more ` +
    `anchor: a rewrite before it is named at its entry (checkpoint_mismatch), entries gone past it are missing_entries. ` +
    `${ROLES}`,
  operationId: 'audit.verify_checkpoint',
  tags: TAGS,
  body: VerifyCheckpointBody,
  response: { 200: Type.Object({ data: VerificationView }, { description: 'The verification' }), ...errorResponses([404, 422]) },
};

export const listCheckpointsSchema = {
  summary: 'List the signed checkpoints of the audit trail',
  description: `Signed heads of the enterprise's trail, newest first; keep one to verify the trail later. ${ROLES}`,
  operationId: 'audit.checkpoints.list',
  tags: TAGS,
  querystring: Type.Object({ ...PaginationQuery }),
  response: { 200: PageOnly(CheckpointView, { description: 'One page of checkpoints' }), ...errorResponses([]) },
};

export const createCheckpointSchema = {
  summary: 'Sign the head of the audit trail now',
  description:
    `Signs the current head of the enterprise's trail (the service also does so periodically). The creation is ` +
    `itself audited, and the checkpoint covers that entry. ${ROLES}`,
  operationId: 'audit.checkpoints.create',
  tags: TAGS,
  response: { 201: DataResponse(CheckpointView), ...errorResponses([]) },
};
