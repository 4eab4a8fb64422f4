-- Single sign-on per enterprise (decisions.md, "Single sign-on"). Owned by src/modules/identity/sso.

-- An enterprise's connections to its identity provider. `type` names the protocol: 'oidc' today; a SAML
-- connection adds its type and its own columns (IdP metadata, certificate), the OIDC ones staying null for it.
create table sso_connections (
  id uuid not null default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  type text not null constraint sso_connections_type_check check (type in ('oidc')),
  name text not null,
  -- OIDC: the issuer (discovered at {issuer}/.well-known/openid-configuration), the client registered there.
  issuer text,
  client_id text,
  -- Needed in clear at each sign-in (the token request authenticates with it), so not hashable: never answered back.
  client_secret text,
  scopes text[] not null default array['openid', 'email', 'profile'],
  -- Password sign-in refused for members whose e-mail is in one of the enterprise's verified domains.
  enforce_sso boolean not null default false,
  -- Just-in-time membership: the role given to a person the connection signs in for the first time; null: off.
  jit_role text constraint sso_connections_jit_role_check check (jit_role in ('assessor', 'reviewer')),
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  row_version bigint not null default 1,
  constraint sso_connections_pkey primary key (id, enterprise_id),
  constraint sso_connections_oidc_check check (type <> 'oidc' or (issuer is not null and client_id is not null and client_secret is not null))
);
create unique index sso_connections_name_key on sso_connections (enterprise_id, lower(name));
create index sso_connections_list_idx on sso_connections (enterprise_id, created_at, id);
create trigger sso_connections_row_version before update of name, issuer, client_id, client_secret, scopes, enforce_sso, jit_role
  on sso_connections for each row execute function bump_row_version();

-- The e-mail domains an enterprise claims. Verified (by its DNS TXT record, or by a super admin): its people
-- are routed to the enterprise's connection, and only their e-mails are accepted from it.
create table sso_domains (
  id uuid not null default gen_random_uuid(),
  enterprise_id uuid not null references enterprises (id),
  domain text not null constraint sso_domains_domain_check check (domain = lower(domain)),
  -- The value the TXT record must hold; random, shown to the enterprise's admins.
  verification_token text not null,
  verified_at timestamptz,
  verified_by uuid references users (id),
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  constraint sso_domains_pkey primary key (id, enterprise_id)
);
create unique index sso_domains_enterprise_domain_key on sso_domains (enterprise_id, domain);
-- A domain is verified for one enterprise at most (claims may be pending in several).
create unique index sso_domains_verified_key on sso_domains (domain) where verified_at is not null;
create index sso_domains_list_idx on sso_domains (enterprise_id, domain, id);

-- Sign-ins under way: what the callback checks (state, PKCE verifier, nonce), bound to the browser that
-- started it (the hash of its cookie), used once, short-lived.
create table sso_flows (
  state_hash text not null,
  enterprise_id uuid not null references enterprises (id),
  connection_id uuid not null,
  browser_hash text not null,
  nonce text not null,
  code_verifier text not null,
  redirect_to text not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  constraint sso_flows_pkey primary key (state_hash, enterprise_id),
  constraint sso_flows_connection_fkey foreign key (connection_id, enterprise_id) references sso_connections (id, enterprise_id) on delete cascade
);
create index sso_flows_expiry_idx on sso_flows (enterprise_id, expires_at);
