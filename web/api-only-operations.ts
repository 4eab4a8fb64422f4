/**
 * Operations of the served API that no console code calls, each with its reason
 * (test/console/operation-coverage.test.ts holds the console to this list).
 *
 * API_ONLY_OPERATIONS: by design, for machines (probes, token verifiers, integrations) or reached by a mail's
 * link or a browser's leg of a sign-in rather than by a screen. Fewer than fifteen.
 * NOT_YET_ON_A_SCREEN: operations a person needs that have no screen yet, named with the console issue that
 * gives them one. A screen that starts calling one of them must take it off this list (the check says so).
 */
export interface UnscreenedOperation {
  operation: string;
  reason: string;
}

export const API_ONLY_OPERATIONS: UnscreenedOperation[] = [
  { operation: 'GET /health', reason: "The readiness probe of load balancers and orchestrators; a person reads the service's state on the platform screens." },
  { operation: 'GET /auth/v1/.well-known/jwks.json', reason: "The signing keys for services that verify our access tokens themselves; no person reads a key set." },
  { operation: 'GET /auth/v1/jwks', reason: "The same key set at the path older Supabase clients ask for; for token verifiers, not people." },
  { operation: 'POST /auth/v1/verify', reason: "Supabase's verifyOtp: a token_hash exchanged for a session by clients that build their own link page; the console follows the mail's link (GET /auth/v1/verify), which signs the person in." },
  { operation: 'GET /auth/v1/verify', reason: "Opened by the link in an invitation or recovery mail (a browser navigation the provider redirects to the console's set-password screen), never called by console code." },
  { operation: 'GET /auth/v1/sso/callback', reason: "Single sign-on's redirect URI: the enterprise's identity provider sends the browser there (a navigation the service answers with a redirect to the console), never called by console code." },
  { operation: 'POST /auth/v1/sso/saml/acs', reason: "SAML single sign-on's Assertion Consumer Service: the enterprise's IdP has the browser POST its signed response there (a form the service answers with a redirect to the console), never called by console code." },
  { operation: 'GET /auth/v1/sso', reason: "Single sign-on as a plain link (an intranet portal's or a bookmark's): the browser is redirected to the enterprise's provider; the console starts the same sign-in with POST /auth/v1/sso." },
  { operation: 'PUT /auth/v1/admin/users/{user_id}', reason: "The provider's admin operation for back-end tools holding the service role key; people are administered through the enterprise member screens." },
  { operation: 'GET /api/v1/bras/{bra_id}/scenarios', reason: "The BRA's scenarios as a list of their own for integrations; the console reads them inside the BRA answer, one request instead of four." },
  { operation: 'GET /api/v1/bras/{bra_id}/ratings', reason: "The BRA's ratings as a list of their own for integrations; the console reads them inside the BRA answer." },
  { operation: 'GET /api/v1/bras/{bra_id}/controls', reason: "The BRA's control links as a list of their own for integrations; the console reads them inside the BRA answer." },
  { operation: 'POST /api/v1/notifications/unsubscribe', reason: 'The one-click unsubscribe (RFC 8058) a mail client POSTs to the List-Unsubscribe URL of a notification mail; a person changes preferences on a screen.' },
  { operation: 'GET /api/v1/notifications/unsubscribe', reason: 'The page behind the unsubscribe link of a notification mail (a browser navigation from the mail), with the button that POSTs the one-click request.' },
];

export const NOT_YET_ON_A_SCREEN: UnscreenedOperation[] = [];
