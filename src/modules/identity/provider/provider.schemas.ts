import { Type, type TSchema } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../../../platform/http/schemas.js';

/**
 * Schemas of the embedded identity provider (D3). Bodies are lenient on purpose: GoTrue clients send
 * members we do not know (`gotrue_meta_security`), and D3 says they are ignored, so no schema here sets
 * additionalProperties:false. Required members are checked by the service, which answers in GoTrue's
 * error shape rather than the API's.
 */

/**
 * Every input of the provider is bounded: nothing a client sends can grow a log line, an alert or an index
 * entry without limit (RFC 5321: an address is at most 254 characters).
 */
export const MAX_EMAIL_LENGTH = 254;
export const MAX_PASSWORD_LENGTH = 1024;

export const ProviderErrorBody = Type.Object(
  {
    error: Type.String({ description: 'OAuth-style error: invalid_grant, invalid_request, invalid_api_key, ...' }),
    error_description: Type.String({ description: 'Human-readable reason' }),
    error_code: Type.Optional(Type.String({ description: 'GoTrue error code, read by @supabase/auth-js as AuthError.code' })),
  },
  { title: 'Identity provider error' },
);

export const errors = (descriptions: Record<number, string>): Record<number, TSchema> =>
  Object.fromEntries(Object.entries(descriptions).map(([status, description]) => [status, { ...ProviderErrorBody, description }]));

// The `apikey` header is documented as a security scheme (openapi-document.ts), not validated here: the
// provider's onRequest hook refuses a missing or wrong key (401) before validation.
const API_KEY = [{ apikey: [] }];
const API_KEY_AND_TOKEN = [{ apikey: [], bearerAuth: [] }];

export const GRANT_TYPES = ['password', 'refresh_token'] as const;

export const ProviderUser = Type.Object({
  id: Uuid('The user_id'),
  aud: Type.Literal('authenticated'),
  role: Type.Literal('authenticated', { description: 'Token role; the service role comes from its own records' }),
  email: Type.String(),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  last_sign_in_at: Nullable(Timestamp()),
  app_metadata: Type.Object({ provider: Type.String(), providers: Type.Array(Type.String()) }),
  user_metadata: Type.Object({ full_name: Type.String() }),
});

export const TokenResponse = Type.Object({
  access_token: Type.String({ description: 'ES256 JWT, valid one hour' }),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer({ description: 'Seconds until the access token expires (3600)' }),
  expires_at: Type.Integer({ description: 'Expiry of the access token, in seconds since the epoch' }),
  refresh_token: Type.String({ description: 'Opaque, single use, valid 7 days' }),
  user: ProviderUser,
});

export const tokenSchema = {
  summary: 'Sign in with e-mail and password, or exchange a refresh token',
  description:
    'grant_type=password takes { email, password }; grant_type=refresh_token takes { refresh_token } and rotates it: ' +
    'the presented token stops working, and presenting it again revokes the whole session. ' +
    'A successful password sign-in sets the http-only cookie sign_in_device (path /auth/v1): a later password sign-in ' +
    'that presents it, or that comes from the address and user agent of a recent successful one, spends that ' +
    "device's own budget of attempts rather than the account's, so that others' wrong guesses do not lock its owner out.",
  operationId: 'auth.token',
  tags: ['auth'],
  security: API_KEY,
  querystring: Type.Object({
    // An unknown grant_type is answered 400 unsupported_grant_type (provider.errors.ts), as GoTrue does.
    grant_type: Type.Optional(Type.Enum(GRANT_TYPES, { description: 'password: sign in; refresh_token: exchange a refresh token' })),
  }),
  body: Type.Object(
    {
      email: Type.Optional(
        Type.String({ maxLength: MAX_EMAIL_LENGTH, description: 'grant_type=password (case-insensitive), at most 254 characters', examples: ['alex.morgan@example.com'] }),
      ),
      password: Type.Optional(Type.String({ maxLength: MAX_PASSWORD_LENGTH, description: 'grant_type=password', examples: ['correct-horse-battery-staple'] })),
      refresh_token: Type.Optional(Type.String({ maxLength: 512, description: 'grant_type=refresh_token' })),
    },
    {
      examples: [{ email: 'alex.morgan@example.com', password: 'correct-horse-battery-staple' }],
    },
  ),
  response: {
    200: { ...TokenResponse, description: 'Signed in: an access token and a refresh token' },
    ...errors({ 400: 'invalid_grant, invalid_request or unsupported_grant_type', 401: 'Missing or invalid apikey' }),
  },
};

export const logoutSchema = {
  summary: 'Sign out: revoke this session, every session of the user, or all others',
  operationId: 'auth.logout',
  tags: ['auth'],
  security: API_KEY_AND_TOKEN,
  querystring: Type.Object({
    scope: Type.Optional(
      Type.Union([Type.Literal('local'), Type.Literal('global'), Type.Literal('others')], {
        description: 'local (the default): this session; global: every session of the user; others: all but this one',
      }),
    ),
  }),
  response: {
    204: Type.Null({ description: 'Signed out' }),
    ...errors({ 400: 'Unknown scope', 401: 'Missing or invalid apikey or access token' }),
  },
};

export const userSchema = {
  summary: 'The user of the access token',
  operationId: 'auth.user',
  tags: ['auth'],
  security: API_KEY_AND_TOKEN,
  response: { 200: { ...ProviderUser, description: 'The user' }, ...errors({ 401: 'Missing or invalid apikey or access token' }) },
};

const Jwks = Type.Object({
  keys: Type.Array(
    Type.Object({
      kty: Type.String(),
      crv: Type.String(),
      x: Type.String(),
      y: Type.String(),
      kid: Type.String(),
      alg: Type.String(),
      use: Type.String(),
    }),
  ),
});

export const jwksSchema = (operationId: string) => ({
  summary: 'The public keys (ES256) that sign access tokens',
  description: 'No apikey needed. Only public key members are published.',
  operationId,
  tags: ['auth'],
  security: [],
  response: { 200: { ...Jwks, description: 'The JSON Web Key Set' } },
});

export const adminSetPasswordSchema = {
  summary: 'Set the password of a known user (service-role key)',
  description: 'Authorization: Bearer <AUTH_SERVICE_ROLE_KEY>. Passwords have at least 8 characters.',
  operationId: 'auth.admin.user.update',
  tags: ['auth'],
  security: API_KEY_AND_TOKEN,
  params: Type.Object({ user_id: Type.String({ maxLength: 64, description: 'The user_id (UUID)' }) }),
  body: Type.Object({
    password: Type.Optional(Type.String({ maxLength: MAX_PASSWORD_LENGTH, description: 'At least 8 characters, at most 1,024' })),
  }),
  response: {
    200: { ...ProviderUser, description: 'The password is set' },
    ...errors({
      400: 'Empty or malformed body',
      401: 'Missing or invalid apikey, or a bearer other than the service-role key',
      404: 'Unknown user',
      422: 'weak_password: under 8 characters',
    }),
  },
};

const ONE_TIME_TYPE = Type.String({ maxLength: 32, description: 'invite or recovery: the kind of link' });
const REDIRECT_TO = Type.String({ maxLength: 2048, description: 'Where the browser goes next; must be on AUTH_REDIRECT_URLS (default: the service origin)' });

export const verifyLinkSchema = {
  summary: 'Follow an invitation or recovery link (the link in the mail)',
  description:
    'Opened by the browser from the mail, with no apikey (as Supabase Auth). A valid, unused, unexpired link signs the user in ' +
    'and answers 303 to redirect_to with the session in the fragment (#access_token=…&refresh_token=…&type=invite), so that ' +
    'the page can call PUT /auth/v1/user to set a password. A used, replaced or expired link redirects with ' +
    '#error=access_denied&error_code=otp_expired. redirect_to off AUTH_REDIRECT_URLS is refused with 400.',
  operationId: 'auth.verify.link',
  tags: ['auth'],
  security: [],
  querystring: Type.Object({
    token: Type.Optional(Type.String({ maxLength: 128, description: 'The one-time token of the link' })),
    type: Type.Optional(ONE_TIME_TYPE),
    redirect_to: Type.Optional(REDIRECT_TO),
  }),
  response: {
    303: Type.Null({ description: 'Redirect to redirect_to, with the session or the error in the fragment' }),
    ...errors({ 400: 'Missing token or type, or redirect_to not allowed' }),
  },
};

export const verifySchema = {
  summary: 'Exchange an invitation or recovery token for a session (verifyOtp)',
  description:
    "What @supabase/auth-js's verifyOtp({ token_hash, type }) sends: token_hash is the link's token. One use; answers the " +
    'session as the password grant does. A used, replaced or expired token: 403 otp_expired, and nothing changes.',
  operationId: 'auth.verify',
  tags: ['auth'],
  security: API_KEY,
  querystring: Type.Object({ redirect_to: Type.Optional(REDIRECT_TO) }),
  body: Type.Object(
    {
      token_hash: Type.Optional(Type.String({ maxLength: 128, description: "The link's token" })),
      type: Type.Optional(ONE_TIME_TYPE),
    },
    { examples: [{ token_hash: 'mN3s…', type: 'invite' }] },
  ),
  response: {
    200: { ...TokenResponse, description: 'Signed in' },
    ...errors({ 400: 'Missing token_hash or type', 401: 'Missing or invalid apikey', 403: 'otp_expired: used, replaced, expired or unknown' }),
  },
};

export const recoverSchema = {
  summary: 'Send a password recovery mail (resetPasswordForEmail)',
  description:
    'Always 200 {} for a well-formed request, whether or not the address belongs to an account: a known active user gets a ' +
    'mail with a one-hour link, anyone else nothing. Limited per address and per e-mail (RATE_LIMIT_RECOVERY_PER_HOUR).',
  operationId: 'auth.recover',
  tags: ['auth'],
  security: API_KEY,
  querystring: Type.Object({ redirect_to: Type.Optional(REDIRECT_TO) }),
  body: Type.Object(
    { email: Type.Optional(Type.String({ maxLength: MAX_EMAIL_LENGTH, description: 'The account e-mail (case-insensitive)' })) },
    { examples: [{ email: 'alex.morgan@example.com' }] },
  ),
  response: {
    200: Type.Object({}, { description: 'Accepted (the same answer for any address)' }),
    ...errors({ 400: 'Missing email, or redirect_to not allowed', 401: 'Missing or invalid apikey' }),
  },
};

export const updateUserSchema = {
  summary: 'Set your password, or your name (updateUser)',
  description:
    'The signed-in user sets a new password, typically right after following an invitation or recovery link. Every other ' +
    'session of the user ends; this one stays. Passwords have at least 8 characters. E-mail changes are not offered here.',
  operationId: 'auth.user.update',
  tags: ['auth'],
  security: API_KEY_AND_TOKEN,
  body: Type.Object(
    {
      password: Type.Optional(Type.String({ maxLength: MAX_PASSWORD_LENGTH, description: 'At least 8 characters' })),
      email: Type.Optional(Type.String({ maxLength: MAX_EMAIL_LENGTH, description: 'Refused: an administrator changes e-mail addresses' })),
      phone: Type.Optional(Type.String({ maxLength: 64, description: 'Refused' })),
      data: Type.Optional(
        Type.Object(
          { full_name: Type.Optional(Type.String({ maxLength: 1000, description: 'Your name as others see it, 1 to 200 characters once trimmed' })) },
          { description: "Supabase's user metadata: the name (sent alone, without a password)" },
        ),
      ),
    },
    { examples: [{ password: 'a-new-long-passphrase' }, { data: { full_name: 'Alex Morgan' } }] },
  ),
  response: {
    200: { ...ProviderUser, description: 'The user' },
    ...errors({ 400: 'An e-mail or phone change', 401: 'Missing or invalid apikey or access token', 422: 'weak_password' }),
  },
};

const SsoTarget = {
  domain: Type.Optional(Type.String({ maxLength: 253, description: 'A verified e-mail domain of the enterprise (auth-js: signInWithSSO({ domain }))' })),
  email: Type.Optional(Type.String({ maxLength: MAX_EMAIL_LENGTH, description: "A person's e-mail: its domain routes, and the provider is given it as login_hint" })),
  provider_id: Type.Optional(Type.String({ maxLength: 64, description: "An SSO connection's id (auth-js: signInWithSSO({ providerId }))" })),
  redirect_to: Type.Optional(REDIRECT_TO),
};

export const ssoStartSchema = {
  summary: 'Start a single sign-on (signInWithSSO)',
  description:
    "What @supabase/auth-js's signInWithSSO({ domain } | { providerId }) sends. Answers the URL of the enterprise's identity provider " +
    '(OIDC: authorization code flow with PKCE, state and nonce; SAML 2.0: an AuthnRequest by the HTTP-Redirect binding, the state as ' +
    'RelayState) and sets the browser cookie its return (callback or ACS) checks. Only the implicit flow of auth-js ' +
    "is supported (the session comes back in redirect_to's fragment): a code_challenge is refused. 404 sso_provider_not_found: no verified domain or connection.",
  operationId: 'auth.sso',
  tags: ['auth'],
  security: API_KEY,
  body: Type.Object({
    ...SsoTarget,
    skip_http_redirect: Type.Optional(Type.Boolean({ description: 'true (auth-js): answer { url }; otherwise 303 to it' })),
    code_challenge: Type.Optional(Nullable(Type.String({ maxLength: 256 }))),
    code_challenge_method: Type.Optional(Nullable(Type.String({ maxLength: 16 }))),
  }),
  response: {
    200: Type.Object({ url: Type.String({ description: "The identity provider's authorization URL" }) }),
    303: Type.Null({ description: 'Redirect to the identity provider' }),
    ...errors({ 400: 'No domain, e-mail or provider_id; redirect_to not allowed; a PKCE code_challenge', 401: 'Missing or invalid apikey', 404: 'No SSO provider for this domain', 502: 'The identity provider could not be reached' }),
  },
};

export const ssoRedirectSchema = {
  summary: "Go to the organisation's sign-in (browser)",
  description: "The browser's way into single sign-on, with no apikey: 303 to the enterprise's identity provider, as POST /sso answers it.",
  operationId: 'auth.sso.redirect',
  tags: ['auth'],
  security: [],
  querystring: Type.Object(SsoTarget),
  response: {
    303: Type.Null({ description: 'Redirect to the identity provider' }),
    ...errors({ 400: 'No domain, e-mail or provider_id, or redirect_to not allowed', 404: 'No SSO provider for this domain', 502: 'The identity provider could not be reached' }),
  },
};

export const ssoCallbackSchema = {
  summary: 'Single sign-on callback (the redirect URI registered at the identity provider)',
  description:
    'The identity provider sends the browser here with code and state. The state must name a sign-in started in this browser, unused and ' +
    "unexpired (else 400 bad_oauth_state). The code is exchanged with the PKCE verifier and the id_token's signature, issuer, audience and nonce " +
    'checked; its e-mail must be verified and in a verified domain of the enterprise, its person a member (or just-in-time membership on). ' +
    '303 to redirect_to with the session in the fragment (#access_token=…&refresh_token=…), or with #error=access_denied&error_code=….',
  operationId: 'auth.sso.callback',
  tags: ['auth'],
  security: [],
  querystring: Type.Object({
    code: Type.Optional(Type.String({ maxLength: 2048 })),
    state: Type.Optional(Type.String({ maxLength: 512 })),
    iss: Type.Optional(Type.String({ maxLength: 2048 })),
    error: Type.Optional(Type.String({ maxLength: 256 })),
    error_description: Type.Optional(Type.String({ maxLength: 2048 })),
    session_state: Type.Optional(Type.String({ maxLength: 512 })),
  }),
  response: {
    303: Type.Null({ description: 'Redirect to redirect_to, with the session or the error in the fragment' }),
    ...errors({ 400: 'The state names no sign-in under way in this browser' }),
  },
};
