import { createHash, X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import xpath from 'xpath';

/**
 * The import of a SAML identity provider's metadata (SAML 2.0 Metadata): its entity id, the SingleSignOnService
 * of the HTTP-Redirect binding (where AuthnRequests go), and the certificates its signatures verify against.
 * Pure: the XML in, the fields out, or the reason it cannot serve.
 */

export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  /** PEM, one per signing KeyDescriptor (a rotation publishes two). */
  certificates: string[];
}

/** What an admin is shown of a certificate (never more is needed to compare it with the IdP's screen). */
export interface CertificateSummary {
  subject: string;
  not_after: string;
  fingerprint_sha256: string;
}

export class SamlMetadataError extends Error {
  override readonly name = 'SamlMetadataError';
}

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const select = xpath.useNamespaces({ md: 'urn:oasis:names:tc:SAML:2.0:metadata', ds: 'http://www.w3.org/2000/09/xmldsig#' });

const attribute = (node: Node, name: string): string => ((node as Element).getAttribute(name) ?? '').trim();

function parse(xml: string): Document {
  const problems: string[] = [];
  const record = (message: string) => problems.push(message.split('\n')[0] ?? message);
  // xmldom resolves no external entity and loads no DTD: the import reads only what it is given.
  const doc = new DOMParser({ errorHandler: { warning: () => undefined, error: record, fatalError: record } }).parseFromString(xml, 'application/xml');
  if (problems.length > 0 || doc.documentElement === null) throw new SamlMetadataError(`The metadata is not well-formed XML: ${problems[0] ?? 'no root element'}`);
  return doc;
}

/** The one IdP the metadata describes (an EntitiesDescriptor of several is refused: which one would be ambiguous). */
function identityProvider(doc: Document): Element {
  const entities = select("//md:EntityDescriptor[md:IDPSSODescriptor]", doc) as Element[];
  if (entities.length === 0) throw new SamlMetadataError('The metadata describes no identity provider (no EntityDescriptor with an IDPSSODescriptor)');
  if (entities.length > 1) throw new SamlMetadataError('The metadata describes several identity providers: import the one of this connection');
  return entities[0]!;
}

function pemOf(base64: string): string {
  const body = base64.replace(/\s+/g, '');
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
  } catch {
    throw new SamlMetadataError('A signing certificate of the metadata is not an X.509 certificate');
  }
  return pem;
}

export function parseIdpMetadata(xml: string): IdpMetadata {
  const entity = identityProvider(parse(xml));
  const entityId = attribute(entity, 'entityID');
  if (entityId === '') throw new SamlMetadataError('The EntityDescriptor has no entityID');
  const descriptor = (select('md:IDPSSODescriptor', entity) as Element[])[0]!;
  const services = select('md:SingleSignOnService', descriptor) as Element[];
  const redirect = services.find((service) => attribute(service, 'Binding') === REDIRECT_BINDING);
  if (redirect === undefined) throw new SamlMetadataError('The identity provider offers no SingleSignOnService with the HTTP-Redirect binding');
  const ssoUrl = attribute(redirect, 'Location');
  if (!/^https?:\/\/[^\s]+$/i.test(ssoUrl)) throw new SamlMetadataError('The SingleSignOnService Location is not an http(s) URL');
  // A KeyDescriptor without `use` serves signing and encryption alike (SAML Metadata 2.4.1.1).
  const keys = (select('md:KeyDescriptor', descriptor) as Element[]).filter((key) => ['', 'signing'].includes(attribute(key, 'use')));
  const certificates = keys.flatMap((key) => (select('.//ds:X509Certificate', key) as Element[]).map((node) => pemOf(node.textContent ?? '')));
  if (certificates.length === 0) throw new SamlMetadataError('The identity provider publishes no signing certificate (KeyDescriptor use="signing" with an X509Certificate)');
  return { entityId, ssoUrl, certificates: [...new Set(certificates)] };
}

export function summarizeCertificate(pem: string): CertificateSummary {
  const certificate = new X509Certificate(pem);
  return {
    subject: certificate.subject.replace(/\n/g, ', '),
    not_after: new Date(certificate.validTo).toISOString(),
    fingerprint_sha256: createHash('sha256').update(certificate.raw).digest('hex').toUpperCase().match(/.{2}/g)!.join(':'),
  };
}
