// An enterprise's identity provider for the end-to-end tests: panva's oidc-provider (a real OpenID provider,
// none of ours) on a random loopback port in the test process, with one confidential client (PKCE required)
// whose redirect URI is the service's SSO callback, as test/support/oidc-idp.ts sets it up for the HTTP suite.
// Here the browser goes through it: its login is a page with a form where the person types their e-mail
// (a person of its directory), and the consent to what the client asks follows from that sign-in.
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The provider's sign-in page: one labelled field and a button (what the browser fills in and clicks). */
function loginPage(uid, hint, refusal) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Harbourview identity provider</title></head>
<body><main>
<h1>Sign in to Harbourview</h1>
${refusal ? `<p role="alert">${escape(refusal)}</p>` : ''}
<form method="post" action="/interaction/${escape(uid)}/login">
<label for="email">Corporate e-mail</label>
<input id="email" name="email" type="email" autocomplete="username" value="${escape(hint ?? '')}" required>
<button type="submit">Sign in at the provider</button>
</form>
</main></body></html>`;
}

async function formOf(req) {
  let body = '';
  for await (const chunk of req) body += chunk;
  return Object.fromEntries(new URLSearchParams(body));
}

/**
 * Starts the provider. `directory`: the people it knows, by e-mail ({ name }); each signs in with a verified
 * e-mail. Answers its issuer, client id and secret, and close().
 */
export async function startIdp(redirectUri, directory) {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'idp-key', alg: 'RS256', use: 'sig' };
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const clientId = 'risk-assurance-console';
  const clientSecret = 'the client secret the e2e IdP registered for the console';
  const people = new Map(Object.entries(directory).map(([email, person]) => [email.toLowerCase(), person]));

  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], response_types: ['code'], grant_types: ['authorization_code'] }],
    jwks: { keys: [jwk] },
    cookies: { keys: ['cookie signing key of the e2e provider'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The claims in the id_token itself, as Entra ID and Okta put them there.
    conformIdTokenClaims: false,
    // The account id is the e-mail (lower case): the subject the service records with the sign-in.
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, email: sub, email_verified: true, name: people.get(sub)?.name }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Lifetimes named (the provider warns about its defaults otherwise): a test's sign-in takes seconds.
    ttl: { Interaction: 600, Session: 600, Grant: 600, AuthorizationCode: 60, AccessToken: 600, IdToken: 600 },
  });

  provider.use(async (ctx, next) => {
    const login = ctx.path.match(/^\/interaction\/([^/]+)\/login$/);
    if (ctx.method === 'GET' && /^\/interaction\/[^/]+$/.test(ctx.path)) {
      const details = await provider.interactionDetails(ctx.req, ctx.res);
      ctx.type = 'html';
      ctx.body = loginPage(details.uid, details.params.login_hint);
      return;
    }
    if (ctx.method === 'POST' && login) {
      const details = await provider.interactionDetails(ctx.req, ctx.res);
      const email = String((await formOf(ctx.req)).email ?? '').trim().toLowerCase();
      if (!people.has(email)) {
        ctx.type = 'html';
        ctx.body = loginPage(details.uid, email, `${email} is not a person of this directory`);
        return;
      }
      // Signed in; the consent to the scopes the console's client asks follows (an enterprise's app, pre-approved).
      const grant = new provider.Grant({ accountId: email, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const result = { login: { accountId: email }, consent: { grantId: await grant.save() } };
      ctx.status = 303;
      ctx.redirect(await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false }));
      return;
    }
    await next();
  });
  server.on('request', provider.callback());

  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
