import type { App, Platform } from '../../platform/module.js';
import { registerEnterpriseRoutes } from './enterprises/enterprises.routes.js';
import { registerEntityRoleRoutes } from './entity-roles/entity-roles.routes.js';
import { registerUserRoutes } from './users/users.routes.js';

/** Enterprise, user and entity-role administration (4.7, D9.1–D9.4). */
export function registerAdminRoutes(app: App, platform: Platform): void {
  registerEnterpriseRoutes(app, platform);
  registerUserRoutes(app, platform);
  registerEntityRoleRoutes(app, platform);
}
