import { readFileSync } from 'node:fs';
import * as validator from '@authenio/samlify-node-xmllint';
import * as samlify from 'samlify';

/**
 * A real SAML 2.0 identity provider in the test process: samlify's IdP side (its AuthnRequest parser and its
 * signing login response), with a fixed key and self-signed certificate (test/support/saml-keys, generated with
 * openssl for these tests only). `respond` answers the AuthnRequest the service redirected to it with a signed
 * response; `tags` change what it states (audience, recipient, validity, InResponseTo) and the other options
 * how it signs (with another key, the response only, not at all).
 */
samlify.setSchemaValidator(validator);

const keyFile = (name: string) => readFileSync(new URL(`./saml-keys/${name}`, import.meta.url), 'utf8');
export const IDP_ENTITY_ID = 'https://idp.corp.test/saml';
export const IDP_SSO_URL = 'https://idp.corp.test/saml/sso';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

const identityProvider = (key: 'idp' | 'foreign') =>
  samlify.IdentityProvider({
    entityID: IDP_ENTITY_ID,
    privateKey: keyFile(`${key}.key.pem`),
    signingCert: keyFile(`${key}.cert.pem`),
    nameIDFormat: [EMAIL_FORMAT],
    singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: IDP_SSO_URL }],
    wantAuthnRequestsSigned: false,
  });

export interface ResponseOptions {
  /** Template values of the response replaced (samlify's tags: Audience, SubjectRecipient, Destination, ConditionsNotOnOrAfter, InResponseTo…). */
  tags?: Record<string, string>;
  /** Signed with a key whose certificate the imported metadata does not hold. */
  foreignKey?: boolean;
  /** Only the response signed, the assertion not. */
  responseSignedOnly?: boolean;
  /** No signature at all. */
  unsigned?: boolean;
  /** An AttributeStatement with these attributes (name → value). */
  attributes?: Record<string, string>;
}

export function startSamlIdp(spMetadataXml: string) {
  const idp = identityProvider('idp');
  const foreign = identityProvider('foreign');
  const sp = samlify.ServiceProvider({ metadata: spMetadataXml });
  // The same SP, were it not to want its assertions signed: samlify then signs the response alone.
  const lenientSp = samlify.ServiceProvider({ metadata: spMetadataXml.replace('WantAssertionsSigned="true"', 'WantAssertionsSigned="false"') });

  /** The AuthnRequest of the URL the service redirected the browser to, as the IdP reads it. */
  async function readRequest(redirect: URL): Promise<{ id: string; relayState: string; destination: string; acs: string }> {
    const parsed = await idp.parseLoginRequest(sp, 'redirect', { query: Object.fromEntries(redirect.searchParams) });
    const request = parsed.extract.request as { id: string; destination: string; assertionConsumerServiceUrl: string };
    return { id: request.id, relayState: redirect.searchParams.get('RelayState') ?? '', destination: request.destination, acs: request.assertionConsumerServiceUrl };
  }

  /** A login response for the person with this e-mail, signed as the options say (base64, as the form carries it). */
  async function respond(requestId: string | null, email: string, options: ResponseOptions = {}): Promise<string> {
    const now = new Date();
    const inFive = new Date(now.getTime() + 5 * 60_000).toISOString();
    const acs = sp.entityMeta.getAssertionConsumerService('post') as string;
    const values: Record<string, string> = {
      ID: `_${crypto.randomUUID()}`,
      AssertionID: `_${crypto.randomUUID()}`,
      Destination: acs,
      Audience: sp.entityMeta.getEntityID(),
      SubjectRecipient: acs,
      Issuer: IDP_ENTITY_ID,
      IssueInstant: now.toISOString(),
      StatusCode: samlify.Constants.StatusCode.Success,
      ConditionsNotBefore: now.toISOString(),
      ConditionsNotOnOrAfter: inFive,
      SubjectConfirmationDataNotOnOrAfter: inFive,
      NameIDFormat: EMAIL_FORMAT,
      NameID: email,
      InResponseTo: requestId ?? '',
      ...options.tags,
    };
    // The statements are XML: in the template itself (samlify escapes the values of its tags).
    const statement = `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="_session"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`;
    const attributes = Object.entries(options.attributes ?? {}).map(([name, value]) => `<saml:Attribute Name="${name}"><saml:AttributeValue xsi:type="xs:string">${value}</saml:AttributeValue></saml:Attribute>`);
    const attributeStatement = attributes.length === 0 ? '' : `<saml:AttributeStatement>${attributes.join('')}</saml:AttributeStatement>`;
    let template = samlify.SamlLib.defaultLoginResponseTemplate.context.replace('{AuthnStatement}', statement).replace('{AttributeStatement}', attributeStatement);
    // An unsolicited response names no request at all.
    if (requestId === null) template = template.replaceAll(' InResponseTo="{InResponseTo}"', '');
    const signer = options.foreignKey === true ? foreign : idp;
    const { context } = await signer.createLoginResponse(options.responseSignedOnly === true ? lenientSp : sp, { extract: { request: { id: requestId ?? '' } } }, 'post', { email }, {
      customTagReplacement: () => ({ id: values['ID']!, context: samlify.SamlLib.replaceTagsByValue(template, values) }),
    });
    if (options.unsigned !== true) return context;
    const xml = Buffer.from(context, 'base64').toString('utf8').replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, '');
    return Buffer.from(xml, 'utf8').toString('base64');
  }

  return { metadata: idp.getMetadata(), foreignMetadata: foreign.getMetadata(), readRequest, respond };
}

export type TestSamlIdp = ReturnType<typeof startSamlIdp>;
