import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { originOf } from '../../../platform/auth/principal.js';
import type { SamlClients } from '../sso/saml-client.js';
import { samlAcsSchema, samlMetadataSchema } from './saml-sign-in.schemas.js';
import type { SignInDevices } from './sign-in-devices.js';
import { presentedSecret, returnTo } from './sso-sign-in.routes.js';
import type { SsoSignIn } from './sso-sign-in.service.js';

/** A SAML response with its certificates and attributes fits well within this; a form beyond it is refused (413). */
const ACS_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * SAML 2.0's legs that the IdP and the browser reach, at GoTrue's paths and without an apikey: our SP metadata,
 * and the Assertion Consumer Service the browser POSTs the IdP's form to.
 */
export async function registerSamlRoutes(scope: FastifyInstance, sso: SsoSignIn, saml: Pick<SamlClients, 'metadata'>, devices: Pick<SignInDevices, 'rememberDevice'>): Promise<void> {
  const metadata = saml.metadata();
  scope.get('/sso/saml/metadata', { schema: samlMetadataSchema, config: { public: true } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=600').type('application/samlmetadata+xml; charset=utf-8');
    return metadata;
  });

  await scope.register(async (acs) => {
    // The HTTP-POST binding: an HTML form the IdP's page submits, so form-encoded (the only body this scope reads).
    acs.removeAllContentTypeParsers();
    acs.addContentTypeParser(/^application\/x-www-form-urlencoded(\s*;.*)?$/i, { parseAs: 'string', bodyLimit: ACS_BODY_LIMIT_BYTES }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    acs.withTypeProvider<TypeBoxTypeProvider>().post('/sso/saml/acs', { schema: samlAcsSchema, config: { public: true } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      reply.header('referrer-policy', 'no-referrer');
      return returnTo(request, reply, devices, await sso.finishSaml(request.body, presentedSecret(request), originOf(request)));
    });
  });
}
