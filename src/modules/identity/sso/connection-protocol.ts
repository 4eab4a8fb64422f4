import { validationError } from '../../../platform/errors/app-error.js';
import { parseIdpMetadata, SamlMetadataError, type IdpMetadata } from './saml-metadata.js';

/** What a connection's body must hold per protocol (OIDC's client, SAML's imported metadata), as 422s per field. */

const OIDC_FIELDS = ['issuer', 'client_id', 'client_secret'] as const;

/** The IdP metadata imported, or 422 on `idp_metadata_xml` with the reason it cannot serve. */
export function importMetadata(xml: string): IdpMetadata {
  try {
    return parseIdpMetadata(xml);
  } catch (error) {
    if (error instanceof SamlMetadataError) throw validationError([{ field: 'idp_metadata_xml', message: error.message }]);
    throw error;
  }
}

/** The fields of one protocol only: a body mixing them, or missing one the protocol needs, is 422 per field. */
export function requireFieldsOf(type: 'oidc' | 'saml', body: Partial<Record<(typeof OIDC_FIELDS)[number] | 'idp_metadata_xml', unknown>>, creating: boolean): void {
  const [own, foreign] = type === 'oidc' ? [OIDC_FIELDS, ['idp_metadata_xml'] as const] : [['idp_metadata_xml'] as const, OIDC_FIELDS];
  const problems = [
    ...foreign.filter((field) => body[field] !== undefined).map((field) => ({ field, message: `not a field of a ${type.toUpperCase()} connection` })),
    ...(creating ? own.filter((field) => body[field] === undefined).map((field) => ({ field, message: `required for a ${type.toUpperCase()} connection` })) : []),
  ];
  if (problems.length > 0) throw validationError(problems);
}

export const samlColumns = (metadata: IdpMetadata, xml: string) => ({
  idp_entity_id: metadata.entityId,
  idp_sso_url: metadata.ssoUrl,
  idp_certificates: metadata.certificates,
  idp_metadata_xml: xml,
});
