import { defineModule } from '../../platform/module.js';
import { createIdentityService } from './identity.service.js';
import { prepareAuthMail } from './onboarding-mail.js';
import { registerScimSettingsRoutes } from './scim/scim-settings.routes.js';
import { createScimSettingsService } from './scim/scim-settings.service.js';
import { registerServiceAccountRoutes } from './service-accounts/service-accounts.routes.js';
import { createServiceAccountsService } from './service-accounts/service-accounts.service.js';
import { createTokensService } from './service-accounts/tokens.service.js';
import { createOidcClients } from './sso/oidc-client.js';
import { createSamlClients } from './sso/saml-client.js';
import { registerSsoSettingsRoutes } from './sso/sso-settings.routes.js';
import { createSsoSettingsService, SSO_CALLBACK_PATH } from './sso/sso-settings.service.js';

/**
 * Identities and the embedded identity provider (D3). Its services are what other modules change
 * identities through (admin's members and super admins). Its routes inside the /api/v1 gate are the
 * enterprise's integrations (service accounts and their tokens; SCIM's settings; single sign-on's connections and domains). The provider's routes are
 * public, under /auth/v1 (provider/provider.routes.ts), and SCIM's under /scim/v2 (scim/scim.routes.ts):
 * app.ts mounts those from the module, with what only it holds (docs/architecture.md).
 */
export const identityModule = defineModule({
  name: 'identity',
  services: (db, { principals, mail, config }) => ({
    ...createIdentityService({ db, principals, mail }),
    serviceAccounts: createServiceAccountsService({ db, principals, mail }),
    serviceAccountTokens: createTokensService({ db, settings: config.serviceAccounts }),
    scimSettings: createScimSettingsService({ db, principals, mail, publicUrl: config.publicUrl }),
    ssoSettings: createSsoSettingsService({
      db,
      oidc: createOidcClients(config.sso),
      redirectUri: `${config.publicUrl}${SSO_CALLBACK_PATH}`,
      samlSp: createSamlClients(config).sp,
      signsIn: config.auth.mode === 'embedded',
    }),
  }),
  mail(db, config) {
    const prepare = prepareAuthMail(db, config);
    return { invite: prepare, recovery: prepare };
  },
  routes(api, services) {
    registerServiceAccountRoutes(api, services.serviceAccounts, services.serviceAccountTokens);
    registerScimSettingsRoutes(api, services.scimSettings);
    registerSsoSettingsRoutes(api, services.ssoSettings);
  },
});
