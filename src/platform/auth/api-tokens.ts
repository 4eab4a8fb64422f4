import type { Principal } from './principal.js';

/**
 * What an opaque API token (an integration's, not a JSON Web Token) resolves to. The platform imports no
 * module: the identity module's service accounts provide the resolver and the composition root (app.ts)
 * hands it to the /api/v1 gate, as it hands the external-subject linking to the principal resolver.
 */
export type ApiTokenResolution =
  | { kind: 'ok'; principal: Principal }
  /** A live token used from an address outside its allow-list: 403, with an access_denied entry naming its account. */
  | { kind: 'address_refused'; principal: Principal }
  /** Unknown, malformed, expired, revoked, or its account deactivated: 401, like any invalid token. */
  | { kind: 'invalid'; reason: string };

export interface ApiTokenResolver {
  /** Whether a bearer token has this resolver's shape (its prefix): only those are resolved here. */
  accepts(token: string): boolean;
  resolve(token: string, ip: string): Promise<ApiTokenResolution>;
}
