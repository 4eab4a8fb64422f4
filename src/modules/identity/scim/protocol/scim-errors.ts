import { AppError, type ErrorCode } from '../../../../platform/errors/app-error.js';

/** RFC 7644 3.12: an error's `scimType` (where one applies) rides in the AppError's details. */
export type ScimType = 'invalidFilter' | 'invalidSyntax' | 'invalidValue' | 'invalidPath' | 'noTarget' | 'uniqueness' | 'mutability' | 'tooMany';

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_MEDIA_TYPE = 'application/scim+json; charset=utf-8';

export const scimError = (code: ErrorCode, detail: string, scimType?: ScimType) =>
  new AppError(code, detail, scimType === undefined ? undefined : { scimType });

export const invalidValue = (detail: string) => scimError('BAD_REQUEST', detail, 'invalidValue');

/** The body of an error, RFC 7644's shape; a uniqueness conflict says so for the provider to match instead. */
export function scimErrorBody(error: AppError) {
  const scimType = (error.details?.['scimType'] as ScimType | undefined) ?? (error.code === 'CONFLICT' ? 'uniqueness' : error.code === 'VALIDATION_ERROR' ? 'invalidValue' : undefined);
  const detail = error.status >= 500 ? 'An unexpected error occurred' : error.message;
  return { schemas: [SCIM_ERROR_SCHEMA], status: String(error.status), ...(scimType === undefined ? {} : { scimType }), detail };
}
