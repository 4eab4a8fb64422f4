import { DOMParser } from '@xmldom/xmldom';
import { SAML, ValidateInResponseTo, generateServiceProviderMetadata, type CacheProvider, type Profile } from '@node-saml/node-saml';
import xpath from 'xpath';
import type { ProviderIdentity } from './oidc-client.js';

/**
 * The service provider's side of SAML 2.0 Web Browser SSO, through @node-saml/node-saml: one SP entity for the
 * deployment (its metadata at SAML_METADATA_PATH, which is also its entity id, as GoTrue's), AuthnRequests by
 * the HTTP-Redirect binding, responses by HTTP-POST at the ACS. A response passes when its assertion is signed
 * by a certificate of the connection's imported metadata, issued by its IdP (the assertion's Issuer), for our entity (audience), to our
 * ACS (Destination, Recipient), in its validity window (a minute of clock skew), in response to the request the
 * sign-in sent (InResponseTo): an unsolicited response is refused.
 */

export const SAML_METADATA_PATH = '/auth/v1/sso/saml/metadata';
export const SAML_ACS_PATH = '/auth/v1/sso/saml/acs';
/** Clocks of the IdP and the service may disagree by this much on NotBefore and NotOnOrAfter. */
export const SAML_CLOCK_SKEW_MS = 60_000;
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

export interface SamlConnection {
  idp_entity_id: string | null;
  idp_sso_url: string | null;
  idp_certificates: string[] | null;
}

/** The sign-in's request, kept between the redirect and the response. */
export interface SamlRequest {
  id: string;
  issuedAt: Date;
}

export class SamlFailure extends Error {
  override readonly name = 'SamlFailure';
}

/** The attributes Entra ID, Okta and others state an e-mail and a name in, first match wins. */
const EMAIL_ATTRIBUTES = ['email', 'mail', 'emailaddress', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', 'urn:oid:0.9.2342.19200300.100.1.3'];
const NAME_ATTRIBUTES = ['displayName', 'name', 'http://schemas.microsoft.com/identity/claims/displayname', 'urn:oid:2.16.840.1.113730.3.1.241'];

const firstValue = (profile: Profile, names: readonly string[]): string | null => {
  for (const name of names) {
    const value = profile[name];
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string' && first.trim() !== '') return first.trim();
  }
  return null;
};

export function createSamlClients(settings: { publicUrl: string }) {
  const entityId = `${settings.publicUrl}${SAML_METADATA_PATH}`;
  const acsUrl = `${settings.publicUrl}${SAML_ACS_PATH}`;
  const sp = { entityId, acsUrl, metadataUrl: entityId };

  /** node-saml for one connection and one sign-in: its request id is the only one it knows (no shared cache). */
  function samlFor(connection: SamlConnection, request: SamlRequest | null): SAML {
    const cacheProvider: CacheProvider = {
      saveAsync: async (key, value) => ({ value, createdAt: Date.now() }),
      getAsync: async (key) => (request !== null && key === request.id ? request.issuedAt.toISOString() : null),
      removeAsync: async () => null,
    };
    return new SAML({
      issuer: entityId,
      callbackUrl: acsUrl,
      audience: entityId,
      entryPoint: connection.idp_sso_url ?? '',
      idpIssuer: connection.idp_entity_id ?? '',
      idpCert: connection.idp_certificates ?? [],
      wantAssertionsSigned: true,
      // The assertion's signature is what is required; a signed response around it is welcome, not needed.
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: 10 * 60_000,
      cacheProvider,
      generateUniqueId: () => request?.id ?? '',
      identifierFormat: EMAIL_FORMAT,
      // Entra ID and Okta choose how the person authenticates (MFA included): no context is asked.
      disableRequestedAuthnContext: true,
      signatureAlgorithm: 'sha256',
    });
  }

  /** Our SP metadata, to import at the IdP. */
  const metadata = (): string =>
    generateServiceProviderMetadata({ issuer: entityId, callbackUrl: acsUrl, identifierFormat: EMAIL_FORMAT, wantAssertionsSigned: true });

  /** The IdP's URL with the AuthnRequest (HTTP-Redirect) and the relay state. */
  async function authorizationRequest(connection: SamlConnection, relayState: string, request: SamlRequest): Promise<string> {
    try {
      return await samlFor(connection, request).getAuthorizeUrlAsync(relayState, undefined, {});
    } catch (error) {
      throw new SamlFailure((error as Error).message);
    }
  }

  /** The POSTed response: every check, then the identity its signed assertion states. */
  async function complete(connection: SamlConnection, samlResponse: string, request: SamlRequest): Promise<ProviderIdentity> {
    let profile: Profile | null;
    try {
      ({ profile } = await samlFor(connection, request).validatePostResponseAsync({ SAMLResponse: samlResponse }));
    } catch (error) {
      throw new SamlFailure((error as Error).message);
    }
    if (profile === null) throw new SamlFailure('The response carries no assertion');
    // node-saml reads the verified assertion's Issuer but compares it with the IdP's entity id only on logout.
    if (profile.issuer !== connection.idp_entity_id) throw new SamlFailure(`The assertion's issuer ${profile.issuer} is not the connection's identity provider`);
    requireOurAcs(Buffer.from(samlResponse, 'base64').toString('utf8'), profile.getAssertionXml?.() ?? '');
    const email = profile.nameIDFormat === EMAIL_FORMAT && profile.nameID.includes('@') ? profile.nameID : firstValue(profile, EMAIL_ATTRIBUTES);
    // The IdP is the enterprise's own, and the address must fall in a domain the enterprise verified: that
    // stands for the verification an OIDC provider states with email_verified.
    return { subject: profile.nameID, email, emailVerified: email !== null, name: firstValue(profile, NAME_ATTRIBUTES) };
  }

  /**
   * node-saml checks neither the response's Destination nor the bearer confirmation's Recipient: a response
   * meant for another service provider's ACS is refused here. The Recipient is read from the verified assertion.
   */
  function requireOurAcs(responseXml: string, assertionXml: string): void {
    const response = new DOMParser().parseFromString(responseXml, 'application/xml').documentElement;
    const destination = response?.getAttribute('Destination') ?? '';
    if (destination !== '' && destination !== acsUrl) throw new SamlFailure(`The response is addressed to ${destination}, not to this service's ACS`);
    const assertion = new DOMParser().parseFromString(assertionXml, 'application/xml');
    const recipients = (xpath.select("//*[local-name()='SubjectConfirmationData']/@Recipient", assertion) as Attr[]).map((node) => node.value);
    if (recipients.length === 0 || recipients.some((recipient) => recipient !== acsUrl)) {
      throw new SamlFailure(`The assertion's Recipient (${recipients.join(', ') || 'none'}) is not this service's ACS`);
    }
  }

  return { sp, metadata, authorizationRequest, complete };
}

export type SamlClients = ReturnType<typeof createSamlClients>;
