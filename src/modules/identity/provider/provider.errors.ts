import type { FastifyError, FastifyReply } from 'fastify';
import { toAppError } from '../../../platform/http/error-handler.js';

/**
 * Errors of the identity provider. They speak GoTrue's wire shape, not the API's (D3): `error` and
 * `error_description` as the contract shows, plus `error_code`, which @supabase/auth-js reads into
 * `AuthError.code` (and turns `weak_password` into an AuthWeakPasswordError) when the response carries
 * no X-Supabase-Api-Version header, as ours do not.
 */
export class ProviderError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 413 | 415 | 422 | 502,
    readonly error: string,
    readonly description: string,
    readonly errorCode: string,
  ) {
    super(description);
    this.name = 'ProviderError';
  }

  body() {
    return { error: this.error, error_description: this.description, error_code: this.errorCode };
  }
}

export const invalidCredentials = () =>
  new ProviderError(400, 'invalid_grant', 'Invalid login credentials', 'invalid_credentials');
export const invalidRefreshToken = (why: string, errorCode = 'refresh_token_not_found') =>
  new ProviderError(400, 'invalid_grant', why, errorCode);
export const invalidRequest = (why: string) => new ProviderError(400, 'invalid_request', why, 'validation_failed');
export const unsupportedGrantType = () =>
  new ProviderError(400, 'unsupported_grant_type', 'grant_type must be password or refresh_token', 'validation_failed');
export const invalidApiKey = () =>
  new ProviderError(401, 'invalid_api_key', 'No API key found in request, or the key is not valid', 'no_authorization');
export const invalidToken = (why: string, errorCode = 'bad_jwt') => new ProviderError(401, 'invalid_token', why, errorCode);
export const notAdmin = () =>
  new ProviderError(401, 'invalid_token', 'This call needs the service-role key as bearer token', 'not_admin');
export const userNotFound = () => new ProviderError(404, 'user_not_found', 'User not found', 'user_not_found');
/** GoTrue's answer to a used, replaced, expired or unknown one-time link: nothing tells them apart. */
export const otpExpired = () => new ProviderError(403, 'access_denied', 'Token has expired or is invalid', 'otp_expired');
export const redirectNotAllowed = () =>
  new ProviderError(400, 'invalid_request', 'redirect_to is not on the allow-list (AUTH_REDIRECT_URLS)', 'validation_failed');
/** An enterprise enforcing single sign-on refuses its members' passwords (GoTrue's code for an SSO-managed user). */
export const ssoRequired = () =>
  new ProviderError(400, 'invalid_grant', "Password sign-in is turned off for your organisation: continue with your organisation's sign-in", 'user_sso_managed');
export const weakPassword = (why: string) => new ProviderError(422, 'weak_password', why, 'weak_password');

/**
 * The provider's scoped error handler. Its own errors and malformed input (bad JSON, a body or query
 * that breaks its schema, a wrong content type, an oversized body) are answered in the provider's shape;
 * anything else (429 from the global rate limiter, 5xx) is rethrown, which hands it to the platform's
 * error handler so that monitoring and the contract's 429/5xx bodies stay in one place.
 */
export function renderProviderError(error: unknown, reply: FastifyReply): FastifyReply {
  if (error instanceof ProviderError) return reply.status(error.status).send(error.body());
  // Fastify's validation message names the part and member ("body/email must be string").
  const validation = (error as FastifyError).validation;
  if (validation !== undefined) {
    // grant_type is an enum in the schema (so the document lists the values); an unknown one stays GoTrue's answer.
    if ((error as FastifyError).validationContext === 'querystring' && validation.some((issue) => issue.instancePath === '/grant_type')) {
      const unsupported = unsupportedGrantType();
      return reply.status(unsupported.status).send(unsupported.body());
    }
    return sendMalformed(reply, 400, (error as FastifyError).message);
  }
  const appError = toAppError(error);
  switch (appError.code) {
    case 'BAD_REQUEST':
    case 'VALIDATION_ERROR':
      return sendMalformed(reply, 400, appError.message);
    case 'PAYLOAD_TOO_LARGE':
      return sendMalformed(reply, 413, appError.message);
    case 'UNSUPPORTED_MEDIA_TYPE':
      return sendMalformed(reply, 415, appError.message);
    default:
      throw error;
  }
}

function sendMalformed(reply: FastifyReply, status: 400 | 413 | 415, why: string): FastifyReply {
  return reply.status(status).send(new ProviderError(status, 'invalid_request', why, 'validation_failed').body());
}
