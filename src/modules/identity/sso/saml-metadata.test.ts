import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseIdpMetadata, summarizeCertificate } from './saml-metadata.js';

/** The import of an IdP's metadata: what is read from it, and what makes it unusable. */
describe('SAML IdP metadata import', () => {
  const certificate = (name: string) =>
    readFileSync(new URL(`../../../../test/support/saml-keys/${name}.cert.pem`, import.meta.url), 'utf8').replace(/-----[A-Z ]+-----|\s/g, '');
  const [idp, next] = [certificate('idp'), certificate('foreign')];
  const key = (use: string | null, body: string) =>
    `<md:KeyDescriptor${use === null ? '' : ` use="${use}"`}><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${body}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;
  const entity = (id: string, inner: string) =>
    `<md:EntityDescriptor entityID="${id}"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${inner}</md:IDPSSODescriptor></md:EntityDescriptor>`;
  const sso = (binding: string, location: string) => `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="${location}"/>`;
  const NS = 'xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#"';
  const document = (body: string) => body.replace(/^<md:(\w+)/, `<md:$1 ${NS}`);

  it("reads the entity id, the HTTP-Redirect service and the signing certificates (a rotation's two; those without use; not encryption's)", () => {
    const xml = document(
      entity('http://www.okta.com/exk1', key('signing', idp) + key(null, `\n${next.match(/.{1,76}/g)!.join('\n')}\n`) + key('encryption', 'ignored') +
        sso('HTTP-POST', 'https://bank.okta.com/app/sso/saml') + sso('HTTP-Redirect', 'https://bank.okta.com/app/sso/saml?x=1')),
    );
    const parsed = parseIdpMetadata(xml);
    expect(parsed.entityId).toBe('http://www.okta.com/exk1');
    expect(parsed.ssoUrl).toBe('https://bank.okta.com/app/sso/saml?x=1');
    expect(parsed.certificates).toHaveLength(2);
    expect(parsed.certificates.map((pem) => summarizeCertificate(pem).subject)).toEqual(['CN=test-saml-idp', 'CN=test-saml-foreign']);
  });

  it('takes the one IdP of an EntitiesDescriptor, and refuses one that holds several', () => {
    const one = entity('https://idp.one', key('signing', idp) + sso('HTTP-Redirect', 'https://idp.one/sso'));
    const two = entity('https://idp.two', key('signing', idp) + sso('HTTP-Redirect', 'https://idp.two/sso'));
    const sp = '<md:EntityDescriptor entityID="https://sp"><md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"/></md:EntityDescriptor>';
    expect(parseIdpMetadata(document(`<md:EntitiesDescriptor>${one}${sp}</md:EntitiesDescriptor>`)).entityId).toBe('https://idp.one');
    expect(() => parseIdpMetadata(document(`<md:EntitiesDescriptor>${one}${two}</md:EntitiesDescriptor>`))).toThrow(/several identity providers/);
  });

  it.each([
    ['not XML', 'this is not xml <', /well-formed/],
    ['no IdP', document('<md:EntityDescriptor entityID="x"/>'), /no identity provider/],
    ['no entityID', document(entity('', key('signing', idp) + sso('HTTP-Redirect', 'https://idp/sso'))), /no entityID/],
    ['no HTTP-Redirect service', document(entity('x', key('signing', idp) + sso('HTTP-POST', 'https://idp/sso'))), /HTTP-Redirect/],
    ['a service that is no URL', document(entity('x', key('signing', idp) + sso('HTTP-Redirect', 'javascript:alert(1)'))), /not an http/],
    ['only an encryption key', document(entity('x', key('encryption', idp) + sso('HTTP-Redirect', 'https://idp/sso'))), /no signing certificate/],
    ['a certificate that is none', document(entity('x', key('signing', 'bm90IGEgY2VydA==') + sso('HTTP-Redirect', 'https://idp/sso'))), /not an X\.509/],
  ])('refuses metadata with %s', (_what, xml, why) => {
    expect(() => parseIdpMetadata(xml)).toThrow(why);
  });
});
