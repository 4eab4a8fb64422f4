/**
 * The one error model (decisions.md D2.2): a code decides the status, the handler renders the body.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  INVALID_REFERENCE: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  INVALID_STATE: 409,
  RATINGS_INCOMPLETE: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  VALIDATION_ERROR: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  PRECONDITION_REQUIRED: 428,
  RATE_LIMIT_EXCEEDED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldError {
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Extra top-level body members (429 carries `retry_after`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const forbidden = (why = 'You do not have permission to perform this action') => new AppError('FORBIDDEN', why);
export const invalidState = (why: string) => new AppError('INVALID_STATE', why);
/**
 * A field or a list filter naming no record of the caller's enterprise (D2.2, D10.1): an id of another
 * enterprise and an id nobody has get this same answer, so a filter never tells one from the other.
 */
export const invalidReference = (field: string, what: string) =>
  new AppError('INVALID_REFERENCE', `${field} does not refer to ${what} of your enterprise`, { field });
/**
 * The one way a list filter (or a body field) resolves the record it names: looked up in the caller's
 * enterprise, the record, or 400 INVALID_REFERENCE naming the field. Assignment checks (403) come after.
 */
export async function referencedRecord<T>(field: string, what: string, lookup: Promise<T | undefined>): Promise<T> {
  const record = await lookup;
  if (record === undefined) throw invalidReference(field, what);
  return record;
}
export const validationError = (fields: FieldError[]) =>
  new AppError('VALIDATION_ERROR', 'Request body failed validation', { fields });
