/** A failed call as the console shows it: the answer's `error` text and each field message of a 422. */
export interface FieldMessage {
  field: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly fields: FieldMessage[];
  readonly requestId: string | null;
  /** The answer's `details` as sent (D2), for a screen that reads more than the field messages. */
  readonly details: Record<string, unknown>;

  constructor(status: number, message: string, options: { code?: string | null; fields?: FieldMessage[]; requestId?: string | null; details?: Record<string, unknown> } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = options.code ?? null;
    this.fields = options.fields ?? [];
    this.requestId = options.requestId ?? null;
    this.details = options.details ?? {};
  }

  /** The message of one field (`name`, `body.name` and `/name` are the same field). */
  fieldMessage(field: string): string | undefined {
    const bare = (name: string) => name.replace(/^(body[./])|^\//, '');
    return this.fields.find((entry) => bare(entry.field) === field)?.message;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Reads any failure body: the API's `{ error, code, request_id, details: { fields } }` (D2) or the
 * provider's `{ error, error_description }` (D3). A body of neither shape still gives a readable line.
 */
export function toApiError(status: number, body: unknown): ApiError {
  if (isRecord(body)) {
    const details = isRecord(body.details) ? body.details : {};
    const fields = Array.isArray(details.fields)
      ? details.fields.filter(isRecord).map((entry) => ({ field: String(entry.field ?? ''), message: String(entry.message ?? '') }))
      : [];
    const text = typeof body.error_description === 'string' ? body.error_description : typeof body.error === 'string' ? body.error : null;
    if (text !== null) {
      return new ApiError(status, text, {
        code: typeof body.code === 'string' ? body.code : typeof body.error_code === 'string' ? body.error_code : null,
        fields,
        requestId: typeof body.request_id === 'string' ? body.request_id : null,
        details,
      });
    }
  }
  return new ApiError(status, status === 0 ? 'The service cannot be reached.' : `The service answered ${status}.`);
}
