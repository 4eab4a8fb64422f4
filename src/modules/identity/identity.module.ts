import { defineModule } from '../../platform/module.js';
import { createIdentityService } from './identity.service.js';

/**
 * Identities and the embedded identity provider (D3). Its services are what other modules change
 * identities through (admin's members and super admins); it has no route inside the /api/v1 gate. Its
 * routes are the provider's, public, under /auth/v1 (provider/provider.routes.ts): app.ts mounts them in
 * embedded mode only, with the limiters and the password hasher it owns (docs/architecture.md).
 */
export const identityModule = defineModule({
  name: 'identity',
  services: (db, { principals, mail }) => createIdentityService({ db, principals, mail }),
});
