-- SAML 2.0 connections beside OIDC ones (decisions.md, "Single sign-on"). Owned by src/modules/identity/sso.

alter table sso_connections drop constraint sso_connections_type_check;
alter table sso_connections add constraint sso_connections_type_check check (type in ('oidc', 'saml'));

-- SAML: what the enterprise's IdP metadata states, imported when the connection is kept or changed: its
-- entity id (the assertions' Issuer), its SingleSignOnService for the HTTP-Redirect binding, the certificates
-- its signatures verify against (PEM), and the metadata itself, as the admin gave it.
alter table sso_connections
  add column idp_entity_id text,
  add column idp_sso_url text,
  add column idp_certificates text[],
  add column idp_metadata_xml text;

alter table sso_connections add constraint sso_connections_saml_check check (
  type <> 'saml' or (
    idp_entity_id is not null and idp_sso_url is not null and cardinality(idp_certificates) > 0 and idp_metadata_xml is not null
    and issuer is null and client_id is null and client_secret is null
  )
);
alter table sso_connections add constraint sso_connections_oidc_columns_check check (
  type <> 'oidc' or (idp_entity_id is null and idp_sso_url is null and idp_certificates is null and idp_metadata_xml is null)
);

drop trigger sso_connections_row_version on sso_connections;
create trigger sso_connections_row_version
  before update of name, issuer, client_id, client_secret, scopes, enforce_sso, jit_role, idp_entity_id, idp_sso_url, idp_certificates, idp_metadata_xml
  on sso_connections for each row execute function bump_row_version();

-- A SAML sign-in keeps the AuthnRequest's ID in `nonce` (the response's InResponseTo must name it) and has no
-- PKCE verifier.
alter table sso_flows alter column code_verifier drop not null;
