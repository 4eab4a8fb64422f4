import type { RouteOptions } from 'fastify';

/**
 * Which routes the safe-client rules apply to, read from the routes as declared (method, path, config and
 * response schema), so that a route added on any branch is held to them without being listed anywhere.
 */
export interface DeclaredRoute {
  method: string;
  url: string;
  route: RouteOptions;
}

export const API = '/api/v1';

/** Single resources whose path does not end in an id (the caller's own description). */
const SINGLE_RESOURCE_READS = new Set([`GET ${API}/me`]);

/**
 * Changes the issue does not ask If-Match of, each with its reason. Anything else that changes one resource
 * (PATCH, DELETE, a POST action on /{id}/...) must declare `ifMatch`.
 */
export const IF_MATCH_EXEMPT = new Map([
  // Deactivation is idempotent and the membership has no version a client reads (no single GET).
  [`DELETE ${API}/admin/enterprises/:enterprise_id/users/:user_id`, 'deactivating a user: idempotent, nothing a client reads to version'],
  // Removing an assignment is idempotent for the caller's intent; assignments have no single GET.
  [`DELETE ${API}/admin/users/:user_id/entity-roles/:role_id`, 'removing an entity role: idempotent, nothing a client reads to version'],
  // Sending the invitation again replaces the previous link; nothing of the user is changed or versioned.
  [`POST ${API}/admin/enterprises/:enterprise_id/users/:user_id/invitation`, 'resending an invitation: changes no versioned resource'],
  // Reactivation of an active user is refused (409), so a repeat cannot apply twice; memberships have no version.
  [`POST ${API}/admin/enterprises/:enterprise_id/users/:user_id/reactivate`, 'reactivating a user: refused once active, nothing a client reads to version'],
  // Removing the role is idempotent (a second removal is 404) and a user has no version a client reads.
  // A retry puts a failed delivery back in the queue; deliveries have no version a client reads.
  [`POST ${API}/webhooks/:webhook_id/deliveries/:delivery_id/retry`, 'retrying a delivery: requeues it, nothing a client reads to version'],
  [`DELETE ${API}/admin/super-admins/:user_id`, 'removing a super admin: idempotent, nothing a client reads to version'],
  // Revoking a token is idempotent (a second revocation answers the token as it is); tokens have no version.
  [`DELETE ${API}/service-accounts/:service_account_id/tokens/:token_id`, 'revoking a token: idempotent, nothing a client reads to version'],
  [`DELETE ${API}/scim/tokens/:scim_token_id`, 'revoking a SCIM token: idempotent, nothing a client reads to version'],
  // A domain's claim has no version a client reads (no single GET); verifying is idempotent, a removal a second time 404.
  [`POST ${API}/sso/domains/:domain_id/verify`, 'verifying a domain: idempotent, nothing a client reads to version'],
  [`POST ${API}/admin/sso/domains/:domain_id/verify`, "a super admin's verification of a domain: idempotent, nothing a client reads to version"],
  [`DELETE ${API}/sso/domains/:domain_id`, 'removing a domain: a second removal is 404, nothing a client reads to version'],
  // A file never changes: there is no version to hold, and a second removal is 404.
  [`DELETE ${API}/evidence/:evidence_id`, 'removing an evidence file: a file never changes, a second removal is 404'],
  // Notification preferences: a PUT names only the kinds it sets, so a repeat sets them again to the same; no version.
  [`PUT ${API}/me/notification-preferences`, 'choosing how one hears of kinds of notification: idempotent per kind, nothing a client reads to version'],
  [`PUT ${API}/notification-defaults`, "setting the enterprise's notification defaults: idempotent per kind, nothing a client reads to version"],
]);

/** Creating POSTs that need no Idempotency-Key, each with its reason. */
export const IDEMPOTENCY_EXEMPT = new Map<string, string>([
  // The starter library loads once per enterprise: a repeat is refused (409), never a second copy.
  [`POST ${API}/controls/starter-library`, 'loading the starter library: once per enterprise, a repeat is 409'],
  // A stream's fingerprint is known only once it is read; a retry adds a second file with the same SHA-256, which the list shows.
  [`POST ${API}/evidence`, 'attaching an evidence file: a streamed upload, a retry is a second file with the same hash'],
]);

/** Changes that may create or change (an upsert): both rules apply. */
const UPSERTS = new Set([`POST ${API}/governance/risk-appetite`]);

const nameOf = ({ method, url }: DeclaredRoute) => `${method} ${url}`;
const endsInParam = (url: string) => /\/:[a-z_]+$/.test(url);
/** POST /things/:id/verb: a state action on one resource. */
const isStateAction = (route: DeclaredRoute) => route.method === 'POST' && /\/:[a-z_]+\/[a-z-]+$/.test(route.url) && !creates(route);
const creates = ({ route }: DeclaredRoute) => {
  const responses = (route.schema as { response?: Record<string, unknown> } | undefined)?.response ?? {};
  return Object.keys(responses).includes('201');
};
const isBulk = ({ method, url }: DeclaredRoute) => method === 'POST' && /\/bulk-[a-z]+$/.test(url);

export function singleResourceReads(routes: readonly DeclaredRoute[]): DeclaredRoute[] {
  return routes.filter((route) => route.method === 'GET' && (endsInParam(route.url) || SINGLE_RESOURCE_READS.has(nameOf(route))));
}

export function versionedChanges(routes: readonly DeclaredRoute[]): DeclaredRoute[] {
  return routes.filter(
    (route) =>
      !IF_MATCH_EXEMPT.has(nameOf(route)) &&
      (route.method === 'PATCH' || route.method === 'PUT' || route.method === 'DELETE' || isStateAction(route) || UPSERTS.has(nameOf(route))),
  );
}

export function creatingPosts(routes: readonly DeclaredRoute[]): DeclaredRoute[] {
  return routes.filter((route) => route.method === 'POST' && (creates(route) || isBulk(route)) && !IDEMPOTENCY_EXEMPT.has(nameOf(route)));
}

export function lacking(routes: readonly DeclaredRoute[], flag: 'etag' | 'ifMatch' | 'idempotent'): string[] {
  return routes.filter(({ route }) => route.config?.[flag] !== true).map(nameOf);
}

export { nameOf };
