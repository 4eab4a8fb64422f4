import { Type, type Static } from 'typebox';
import { Abilities, IdParams, MessageOnly, Nullable, Timestamp, Uuid, errorResponses } from '../../platform/http/schemas.js';
import { UserRef } from '../bras/bras.schemas.js';

/** Evidence files (issue 48): files behind a control test, a mitigation action, a BRA or one of its scenarios. */

const tags = ['evidence'];

export const EVIDENCE_RECORD_TYPES = ['bra', 'bra_scenario', 'mitigation_action', 'sub_control_test'] as const;

export const RecordQuery = Type.Object(
  {
    record_type: Type.Enum([...EVIDENCE_RECORD_TYPES], {
      description:
        'What the file is attached to: `bra`, `bra_scenario` (a scenario link of a BRA), `mitigation_action`, `sub_control_test` (a test ' +
        'of GET /controls/sub-controls/{id}/tests)',
    }),
    record_id: Uuid('The record: unknown or of another enterprise is 400 INVALID_REFERENCE naming record_id'),
  },
  { additionalProperties: false },
);
export type RecordQuery = Static<typeof RecordQuery>;

export const EvidenceParams = IdParams('evidence_id');

const EvidenceAbilities = Abilities({ attach: 'Attach a file to this record (POST /evidence)', remove: 'Remove a file of this record (DELETE /evidence/{id})' });

export const EvidenceView = Type.Object(
  {
    id: Uuid('The file'),
    record_type: RecordQuery.properties.record_type,
    record_id: Uuid('The record it is attached to'),
    name: Type.String({ description: 'The file name as uploaded (without any folder), at most 255 characters' }),
    media_type: Type.String({ description: 'The type the service read from the content (never the one the client claimed); served with downloads' }),
    size_bytes: Type.Integer({ minimum: 0 }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'Hex SHA-256 of the content as received; the upload’s audit entry carries it too' }),
    created_by: Nullable(Uuid('Who uploaded it')),
    created_by_user: Nullable(UserRef),
    created_at: Timestamp(),
  },
  {
    examples: [
      {
        id: '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
        record_type: 'sub_control_test',
        record_id: '3f0b8c1e-52a4-4d7e-9b1a-0c6f2e9d4a10',
        name: 'Q3 access review sign-off.pdf',
        media_type: 'application/pdf',
        size_bytes: 184_320,
        sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
        created_by: '2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e',
        created_by_user: { id: '2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e', full_name: 'Olivia Hart' },
        created_at: '2026-11-28T10:15:00.000Z',
      },
    ],
  },
);
export type EvidenceView = Static<typeof EvidenceView>;

export const listEvidenceSchema = {
  summary: "A record's evidence files",
  description:
    'Readable by whoever reads the record (its own rules: a BRA’s and its scenarios’ by the BRA’s readers, an action’s within the ' +
    'actions scope, a test’s by every member). Live files, newest first, with what the caller may do with the record’s files.',
  operationId: 'evidence.list',
  tags,
  querystring: RecordQuery,
  response: { 200: Type.Object({ data: Type.Array(EvidenceView), abilities: EvidenceAbilities }), ...errorResponses([]) },
};

export const uploadEvidenceSchema = {
  summary: 'Attach a file to a record',
  description:
    'multipart/form-data with one part named `file`. Allowed to whoever may change the record, while it may change (a BRA and its ' +
    'scenarios while draft or in progress, an action not archived, a test of a sub-control not archived; else 409 INVALID_STATE). ' +
    'The type is read from the content: documents (PDF, Office, OpenDocument, older Office and Outlook files), images and UTF-8 text; ' +
    'anything else, executables and archives included, is 415. A file over EVIDENCE_MAX_FILE_MB, or over what is left of the ' +
    'enterprise’s EVIDENCE_QUOTA_MB, is 413. A refused upload leaves nothing behind. Audited (`create`, with the SHA-256). ' +
    'Takes no Idempotency-Key: a retried upload adds a second file with the same hash, which the list shows.',
  operationId: 'evidence.upload',
  tags,
  querystring: RecordQuery,
  consumes: ['multipart/form-data'],
  response: {
    201: Type.Object({ data: EvidenceView, message: Type.String() }),
    ...errorResponses([409, 422]),
    413: Type.Ref('ErrorBody', { description: 'PAYLOAD_TOO_LARGE: the file is over EVIDENCE_MAX_FILE_MB or what is left of the quota' }),
    415: Type.Ref('ErrorBody', { description: 'UNSUPPORTED_MEDIA_TYPE: not multipart/form-data, or a file of a refused type' }),
  },
};

export const downloadEvidenceSchema = {
  summary: 'Download an evidence file',
  description:
    'The same rules as reading its record. The stored type, `Content-Disposition: attachment`, `X-Content-Type-Options: nosniff`, ' +
    'the SHA-256 in `Repr-Digest`. A single `Range: bytes=…` is answered 206 with `Content-Range` (several ranges: the whole file, 200); ' +
    'a range past the end is 416. A removed file is 404.',
  operationId: 'evidence.download',
  tags,
  params: EvidenceParams,
  produces: ['application/octet-stream'],
  response: {
    200: { description: 'The content, with its stored media type', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
    206: { description: 'The range asked for', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
    ...errorResponses([404, 416]),
  },
};

export const removeEvidenceSchema = {
  summary: 'Remove an evidence file',
  description:
    'Whoever may change its record, while it may change (as attaching). The file leaves the record’s list; its content is kept, so ' +
    'that a snapshot which listed it still names bytes that exist. Audited (`delete`). A file removed already is 404.',
  operationId: 'evidence.remove',
  tags,
  params: EvidenceParams,
  response: { 200: MessageOnly, ...errorResponses([404, 409]) },
};
