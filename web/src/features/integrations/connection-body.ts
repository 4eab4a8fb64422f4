import type { SsoConnection } from './api';

/** The SSO connection form's values, and the body a save sends for each protocol. */

export type Protocol = 'oidc' | 'saml';
export const PROTOCOLS = [{ value: 'oidc', label: 'OpenID Connect' }, { value: 'saml', label: 'SAML 2.0' }];

export interface ConnectionValues {
  type: Protocol;
  name: string;
  idp_metadata_xml: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  scopes: string;
  enforce_sso: boolean;
  jit_role: string;
}

export const valuesOf = (connection: SsoConnection | null): ConnectionValues => ({
  type: connection?.type ?? 'oidc',
  name: connection?.name ?? '',
  idp_metadata_xml: '',
  issuer: connection?.issuer ?? '',
  client_id: connection?.client_id ?? '',
  client_secret: '',
  scopes: (connection?.scopes ?? ['openid', 'email', 'profile']).join(' '),
  enforce_sso: connection?.enforce_sso ?? false,
  jit_role: connection?.jit_role ?? '',
});

/** What a save sends: the fields of the connection's protocol (a secret or metadata only when typed or pasted). */
export function bodyOf(values: ConnectionValues, creating: boolean) {
  const common = {
    name: values.name.trim(),
    enforce_sso: values.enforce_sso,
    jit_role: (values.jit_role || null) as 'assessor' | 'reviewer' | null,
  };
  if (values.type === 'saml') return { ...common, ...(values.idp_metadata_xml.trim() === '' && !creating ? {} : { idp_metadata_xml: values.idp_metadata_xml.trim() }) };
  return {
    ...common,
    issuer: values.issuer.trim(),
    client_id: values.client_id.trim(),
    scopes: values.scopes.split(/\s+/).filter((scope) => scope !== ''),
    ...(values.client_secret === '' && !creating ? {} : { client_secret: values.client_secret }),
  };
}
