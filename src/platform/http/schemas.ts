import { Type, type Static, type TSchema } from 'typebox';

/** Shared TypeBox schemas: one definition serves validation, serialization, types and the OpenAPI document. */
export const Uuid = (description?: string) =>
  Type.String({ format: 'uuid', ...(description !== undefined ? { description } : {}) });
/**
 * An ISO 8601 UTC timestamp on the wire. Both database engines hand timestamps back as Date; the
 * serializer renders a Date under this schema as `toISOString()` (with a Z), so handlers pass rows as
 * they are and no layer converts them.
 */
export const Timestamp = (description?: string) =>
  Type.Unsafe<Date | string>({ type: 'string', format: 'date-time', ...(description !== undefined ? { description } : {}) });
/**
 * A calendar date from year 0001: PostgreSQL has no year 0 (`0000-01-01` is SQLSTATE 22008), which
 * ajv-formats' `date` accepts; the pattern refuses it as a validation error instead of a 500.
 */
export const CalendarDate = (description?: string) =>
  Type.String({ format: 'date', pattern: '^(?!0000)[0-9]{4}-', ...(description !== undefined ? { description } : {}) });
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** D2.3 bounds. Bodies are trimmed before validation, so minLength 1 refuses blank strings. */
export const Name = (description = 'Name, at most 200 characters') =>
  Type.String({ minLength: 1, maxLength: 200, description });
export const FreeText = (description = 'Free text, at most 5,000 characters') =>
  Type.String({ maxLength: 5000, description });
export const Email = (description = 'E-mail address') =>
  Type.String({ format: 'email', minLength: 3, maxLength: 254, description });

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'Descriptive message' }),
    code: Type.String({ description: 'Machine code (decisions.md D2.2)' }),
    request_id: Type.String({ description: 'The X-Request-Id of the request' }),
    details: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Extra information' })),
    retry_after: Type.Optional(Type.Integer({ description: 'Seconds to wait (429 only)' })),
  },
  { $id: 'ErrorBody', title: 'Error' },
);

export const PaginationQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: 'Page number, from 1' })),
  page_size: Type.Optional(
    Type.Integer({ minimum: 1, default: 25, description: 'Items per page; values above 100 are clamped to 100' }),
  ),
};

export const Pagination = Type.Object({
  page: Type.Integer(),
  page_size: Type.Integer({ description: 'The page size used (after clamping)' }),
  total: Type.Integer(),
  total_pages: Type.Integer(),
  has_next: Type.Boolean(),
  has_prev: Type.Boolean(),
});

/** A user as an answer names them, so a reader needs no user lookup they may not be allowed. */
export const UserRef = Type.Object(
  { id: Uuid('The user'), full_name: Type.String({ description: 'Their full name' }) },
  { description: 'The user named by the sibling id member, with their name', examples: [{ id: '2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e', full_name: 'Olivia Hart' }] },
);
export type UserRef = Static<typeof UserRef>;

export const Message = Type.String({ description: 'Human-readable success text' });

export const MessageOnly = Type.Object({ message: Message });

export const DataResponse = <T extends TSchema>(data: T) => Type.Object({ data, message: Message });
export const ListResponse = <T extends TSchema>(item: T) => Type.Object({ data: Type.Array(item) });
export const PageResponse = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), pagination: Pagination, message: Type.Optional(Message) });
/** A page without a message; `pagination` for a list whose pagination says more (the audit search's estimate). */
export const PageOnly = <T extends TSchema, P extends TSchema = typeof Pagination>(item: T, options: { description?: string; pagination?: P } = {}) =>
  Type.Object(
    { data: Type.Array(item), pagination: (options.pagination ?? Pagination) as P },
    options.description === undefined ? {} : { description: options.description },
  );

/**
 * What the caller may do to a record now (issue 45), each member a boolean computed by the same policy
 * predicate the service enforces (and the lifecycle's state where the action has one). The console reads it
 * instead of re-deriving rules from role names; the service still decides every call.
 */
export const Abilities = <K extends string>(members: Record<K, string>) => {
  const names = Object.keys(members) as K[];
  return Type.Object(Object.fromEntries(names.map((name) => [name, Type.Boolean({ description: members[name] })])) as Record<K, ReturnType<typeof Type.Boolean>>, {
    description: "What the caller may do now, by the service's own policy: true means the call would be allowed (content checks aside)",
    examples: [Object.fromEntries(names.map((name, index) => [name, index % 3 !== 2]))],
  });
};

export const IdParams = <K extends string>(name: K) => Type.Object({ [name]: Uuid() } as Record<K, ReturnType<typeof Uuid>>);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed input or invalid reference',
  401: 'Missing, expired or invalid token',
  403: 'The role or entity assignment does not allow this call',
  404: 'Not found (or in another enterprise)',
  409: 'Conflict with a uniqueness rule or the resource state',
  413: 'Body over 1 MiB',
  415: 'Body without Content-Type: application/json',
  416: 'The Range asks for bytes past the end of the file',
  422: 'The body breaks its schema',
  429: 'Rate limit exceeded',
  500: 'Unexpected error',
  503: 'Database unreachable',
};

/** Every authenticated route answers these; routes add their own (404, 409, ...). */
export const COMMON_ERRORS = [400, 401, 403, 429, 500, 503] as const;

export function errorResponses(statuses: readonly number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const status of new Set([...COMMON_ERRORS, ...statuses])) {
    out[status] = Type.Ref('ErrorBody', { description: ERROR_DESCRIPTIONS[status] ?? 'Error' });
  }
  return out;
}

/**
 * A CSV download's media type in a route's response: the text, and its header row as the example (from the
 * columns the export writes, so the two cannot drift apart).
 */
export function csvMedia(columns: readonly string[]) {
  return {
    schema: Type.String({ description: 'RFC 4180 CSV with a header row' }),
    example: `${columns.join(',')}\r\n`,
  };
}

const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * A table export's media types and answer, spread into its route schema: the rows streamed as CSV (its
 * header row the columns given, as csvMedia) or as an XLSX workbook.
 */
export function tableFileDownload(columns: readonly string[]) {
  return {
    produces: ['text/csv', XLSX_MEDIA_TYPE],
    response: {
      200: {
        description: 'The file, streamed',
        content: {
          'text/csv': csvMedia(columns),
          [XLSX_MEDIA_TYPE]: { schema: Type.String({ format: 'binary' }) },
        },
      },
      ...errorResponses([]),
    },
  };
}
