import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SsoConnection } from '../src/features/integrations/api';
import { bodyOf, valuesOf } from '../src/features/integrations/connection-body';
import { SamlSpValues } from '../src/features/integrations/saml-sp-values';
import { renderWithTheme } from './render';

const saml: SsoConnection = {
  id: '3f0c7a55-1d2e-4b8f-9a61-0c1d2e3f4a5b',
  type: 'saml',
  name: 'Okta',
  issuer: null,
  client_id: null,
  client_secret_set: false,
  scopes: ['openid', 'email', 'profile'],
  enforce_sso: false,
  jit_role: null,
  redirect_uri: 'https://risk.bank.example/auth/v1/sso/callback',
  saml: {
    idp_entity_id: 'http://www.okta.com/exk1',
    idp_sso_url: 'https://bank.okta.com/app/sso/saml',
    idp_certificates: [{ subject: 'CN=bank', not_after: '2036-01-01T00:00:00.000Z', fingerprint_sha256: 'AB:CD' }],
    sp_entity_id: 'https://risk.bank.example/auth/v1/sso/saml/metadata',
    acs_url: 'https://risk.bank.example/auth/v1/sso/saml/acs',
    metadata_url: 'https://risk.bank.example/auth/v1/sso/saml/metadata',
  },
  created_at: '2026-11-28T10:00:00.000Z',
  updated_at: '2026-11-28T10:00:00.000Z',
};

describe('an SSO connection in the console (OIDC or SAML)', () => {
  it("a new SAML connection sends its type and the IdP's metadata, none of OIDC's fields", () => {
    const values = { ...valuesOf(null), type: 'saml' as const, name: ' Okta ', idp_metadata_xml: ' <md:EntityDescriptor/> ', issuer: 'typed before switching' };
    expect(bodyOf(values, true)).toEqual({ name: 'Okta', enforce_sso: false, jit_role: null, idp_metadata_xml: '<md:EntityDescriptor/>' });
  });

  it('a change of a SAML connection re-imports the metadata only when pasted', () => {
    expect(bodyOf({ ...valuesOf(saml), jit_role: 'reviewer' }, false)).toEqual({ name: 'Okta', enforce_sso: false, jit_role: 'reviewer' });
  });

  it("an OIDC connection's change keeps its secret unless one is typed", () => {
    const oidc = { ...saml, type: 'oidc' as const, issuer: 'https://idp.example', client_id: 'client', client_secret_set: true, saml: null };
    expect(bodyOf(valuesOf(oidc), false)).toEqual({ name: 'Okta', enforce_sso: false, jit_role: null, issuer: 'https://idp.example', client_id: 'client', scopes: ['openid', 'email', 'profile'] });
    expect(bodyOf({ ...valuesOf(oidc), client_secret: 'new' }, false)).toMatchObject({ client_secret: 'new' });
  });

  it("shows this service's SP values to enter at the IdP, and what was imported", () => {
    renderWithTheme(<SamlSpValues connection={saml} />);
    expect(screen.getByText('https://risk.bank.example/auth/v1/sso/saml/acs')).toBeTruthy();
    expect(screen.getAllByText('https://risk.bank.example/auth/v1/sso/saml/metadata')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Copy ACS URL (Reply URL, Single sign-on URL)' })).toBeTruthy();
    expect(screen.getByText(/Imported: http:\/\/www.okta.com\/exk1/).textContent).toContain('CN=bank until 2036-01-01');
  });
});
