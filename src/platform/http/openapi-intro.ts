import type { Config } from '../../config.js';
import type { TagInfo } from './openapi-document.js';

export const PRODUCT_NAME = 'Risk Assurance Service';

export const DOCS_PATH = '/docs';

/** The path the document is served at; /docs loads it from there. */
export const OPENAPI_PATH = '/api/v1/openapi.json';

/** Tags in reading order. A module's new tag that is missing here is still listed, with a generic line. */
export const TAGS: readonly TagInfo[] = [
  { name: 'auth', description: 'The embedded identity provider (Supabase Auth protocol): sign in, refresh, sign out, set a password. Every call but the key set needs the `apikey` header.' },
  { name: 'identity', description: 'Who the bearer token belongs to, with the role and assignments taken from our records.' },
  { name: 'legal entities', description: 'The legal entities of an enterprise and their business units: what risk is assessed for.' },
  { name: 'risk scenarios', description: "The enterprise's risk-scenario catalogue, seeded with a starter set when the enterprise is created." },
  { name: 'controls', description: 'The key-control library and its sub-controls, their test results, and the effectiveness they add up to.' },
  { name: 'mitigation actions', description: 'What is done about a risk, by whom and by when: create, change, bulk-update and archive mitigation actions.' },
  { name: 'evidence', description: 'Files behind a control test, a mitigation action, a BRA or one of its scenarios: attached, listed, downloaded and removed under the rules of the record they belong to.' },
  { name: 'reporting', description: "The enterprise's risk picture: the risk register and its export, the dashboard, and each BRA's report as PDF or XLSX." },
  { name: 'webhooks', description: 'Endpoints the enterprise registers to be told of its events (BRA moves, risks above appetite, their acceptance and its expiry, overdue and completed actions, appetite changes), signed the Standard Webhooks way, with their delivery logs.' },
  { name: 'admin', description: 'Platform and enterprise administration: enterprises, users, entity roles, system alerts.' },
  { name: 'platform', description: 'Health of the service and its database.' },
];

/**
 * The introduction shown at the top of /docs (info.description). It states how to get from nothing to a
 * first real call; the numbers (rate limits) come from the running configuration.
 */
export function apiIntroduction(config: Config): string {
  const { perMinute, perHour } = config.rateLimit;
  const embedded = config.auth.mode === 'embedded';
  return `A multi-tenant JSON API for business risk assessment and control assurance. Each enterprise sees only its own
data; inside an enterprise, assessors and reviewers see only the legal entities they are assigned to. The operations
below are what this version serves.

This page is generated from the route schemas; the same document is served at \`${OPENAPI_PATH}\` for client
generators. The service's own guide is \`docs/guide.md\` in the repository.

Codes in parentheses cite the contract this service implements, which the repository carries:
\`(D5)\` or \`(D6.7)\` is a section (and its numbered item) of \`docs/contract/decisions.md\`, D5 being who may do
what; \`(4.2)\` or \`(3.5)\` is a section of \`docs/contract/interface.md\`.

## Getting started

1. Get a user. Either start the service once with \`BOOTSTRAP_SUPER_ADMIN_EMAIL\` and
   \`BOOTSTRAP_SUPER_ADMIN_PASSWORD\` set (a super admin is created), or run \`npm run demo\` (a demo enterprise with
   a client admin, assessors and reviewers; it prints their passwords).
2. Sign in: \`POST /auth/v1/token?grant_type=password\` with the \`apikey\` header and \`{ "email", "password" }\`.
3. Call the API with \`Authorization: Bearer <access_token>\`. \`GET /api/v1/me\` says who you are.

Here, press **Authorize**, paste the \`apikey\` and, after signing in through \`POST /auth/v1/token\`, the
\`access_token\` as bearer token; then **Try it out** on any operation.

## The two keys

${embedded ? `The embedded identity provider under \`/auth/v1\` has two keys, generated at first start, kept in the database
and shown once on the service's terminal (or set with \`AUTH_ANON_KEY\` / \`AUTH_SERVICE_ROLE_KEY\`);
\`npm run keys\` shows them again:

- **\`AUTH_ANON_KEY\`**, the public client key: sent as the \`apikey\` header on every \`/auth/v1\` call. It identifies
  the client application, not a user, and grants nothing by itself.
- **\`AUTH_SERVICE_ROLE_KEY\`**, the admin key: keep it secret. It is sent as \`Authorization: Bearer\` (with the
  \`apikey\` header) to \`PUT /auth/v1/admin/users/{user_id}\` to set a user's password.` : `This instance verifies the tokens of an external identity provider (\`AUTH_MODE=external\`); sign in there and
send its access token as \`Authorization: Bearer\`.`}

## Signing in and staying signed in

The access token is a JWT valid one hour. The refresh token (7 days, single use) buys a new pair from
\`POST /auth/v1/token?grant_type=refresh_token\`; the old refresh token stops working, and presenting it again ends
the session. \`POST /auth/v1/logout\` ends the session at once, for the API too. The official
\`@supabase/auth-js\` client works against \`/auth/v1\` unchanged.

## Roles

Roles come from the service's records, never from the token.

- **Super admin**: administers the platform (\`/api/v1/admin/*\`, \`/api/v1/me\`); refused (403) on an enterprise's
  risk data.
- **Client admin**: everything in its own enterprise: users, entity roles, legal entities, the scenario catalogue.
- **Assessor** and **reviewer**: only the legal entities (or business units) they are assigned to through entity
  roles.

A new user is created by \`POST /api/v1/admin/enterprises/{enterprise_id}/users\`; its password is then set by
\`PUT /auth/v1/admin/users/{user_id}\` with the service-role key. That call takes the \`user_id\` of the answer, not
its \`id\` (the membership).

## Errors

Every \`/api/v1\` error has one shape: \`{ "error": "<message>", "code": "<CODE>", "request_id": "…", "details": { … } }\`.
\`code\` is one of \`BAD_REQUEST\`, \`INVALID_REFERENCE\` (400), \`UNAUTHORIZED\` (401), \`FORBIDDEN\` (403),
\`NOT_FOUND\` (404, also for another enterprise's resources), \`CONFLICT\`, \`INVALID_STATE\`, \`RATINGS_INCOMPLETE\`
(409), \`PAYLOAD_TOO_LARGE\` (413), \`UNSUPPORTED_MEDIA_TYPE\` (415), \`RANGE_NOT_SATISFIABLE\` (416, an evidence download's Range past the end), \`VALIDATION_ERROR\` (422, with
\`details.fields\`), \`RATE_LIMIT_EXCEEDED\` (429), \`INTERNAL_ERROR\` (500), \`SERVICE_UNAVAILABLE\` (503).
Bodies are strict: unknown fields are refused with 422. Every response carries \`X-Request-Id\` (yours is reused
when it is sensible); quote it when reporting a problem. \`/auth/v1\` answers errors in the provider's own shape:
\`{ "error", "error_description", "error_code" }\`.

## Rate limits

${perMinute} requests a minute and ${perHour} an hour per user (per client address before signing in), shared by
all instances when \`REDIS_URL\` is set. Every counted response carries \`X-RateLimit-Limit\`,
\`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (seconds); over the limit the answer is 429 with
\`Retry-After\` and \`retry_after\`. \`/health\`, this page and the document are not counted.

## Lists

Paginated lists take \`page\` (from 1) and \`page_size\` (above 100 is clamped to 100) and answer
\`{ data, pagination: { page, page_size, total, total_pages, has_next, has_prev } }\`, newest first.
`;
}

/**
 * The document's licence (info.license): the service is not published under an open licence (package.json
 * is private and names none), so its API description says so rather than leave a reader to guess.
 */
export const LICENSE = { name: 'Proprietary: all rights reserved; use as agreed with the operator of this service', identifier: 'LicenseRef-Proprietary' };
