import { Type } from 'typebox';
import { errors } from './provider.schemas.js';

/** SAML 2.0's two legs of single sign-on that the IdP and the browser reach: our SP metadata and the ACS. */

export const samlMetadataSchema = {
  summary: "This service's SAML service provider metadata",
  description:
    'The SP metadata to import at a SAML identity provider (Entra ID, Okta): the entity id (this URL), the Assertion Consumer ' +
    'Service (HTTP-POST), the e-mail NameID format, signed assertions wanted. One service provider for the deployment: every ' +
    "enterprise's SAML connection uses it. No apikey.",
  operationId: 'auth.sso.saml.metadata',
  tags: ['auth'],
  security: [],
  produces: ['application/samlmetadata+xml'],
  response: {
    200: { description: 'The SP metadata (XML)', content: { 'application/samlmetadata+xml': { schema: Type.String() } } },
  },
};

export const samlAcsSchema = {
  summary: 'SAML Assertion Consumer Service (HTTP-POST binding)',
  description:
    "The IdP's form, POSTed by the browser: SAMLResponse and RelayState. The RelayState must name a sign-in started in this browser " +
    'by GET or POST /sso, unused and unexpired (else 400 bad_oauth_state: IdP-initiated, unsolicited responses are refused). The ' +
    "assertion must be signed with a certificate of the connection's imported metadata and issued by its IdP, in response to the " +
    "sign-in's AuthnRequest (InResponseTo), for this service's entity (Audience) and ACS (Destination, Recipient), within its " +
    "NotBefore and NotOnOrAfter (a minute of clock skew). The e-mail is the NameID (emailAddress format) or an e-mail attribute, in a " +
    'verified domain of the enterprise; its person a member (or just-in-time membership on). 303 to redirect_to with the session in ' +
    'the fragment (#access_token=…&refresh_token=…), or with #error=access_denied&error_code=….',
  operationId: 'auth.sso.saml.acs',
  tags: ['auth'],
  security: [],
  consumes: ['application/x-www-form-urlencoded'],
  body: Type.Object({
    SAMLResponse: Type.String({ minLength: 1, maxLength: 500_000, description: 'The base64 SAML Response' }),
    RelayState: Type.Optional(Type.String({ maxLength: 512, description: 'The sign-in it answers (the relay state of its AuthnRequest)' })),
  }),
  response: {
    303: Type.Null({ description: 'Redirect to redirect_to, with the session or the error in the fragment' }),
    ...errors({ 400: 'The RelayState names no sign-in under way in this browser (an unsolicited response among them)', 413: 'The form is too large', 415: 'Not a form' }),
  },
};
