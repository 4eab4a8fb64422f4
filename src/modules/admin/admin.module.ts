import { defineModule } from '../../platform/module.js';
import { registerEnterpriseRoutes } from './enterprises/enterprises.routes.js';
import { createEnterprisesService } from './enterprises/enterprises.service.js';
import { registerEntityRoleRoutes } from './entity-roles/entity-roles.routes.js';
import { createEntityRolesService } from './entity-roles/entity-roles.service.js';
import { registerSuperAdminRoutes } from './super-admins/super-admins.routes.js';
import { createSuperAdminsService } from './super-admins/super-admins.service.js';
import { registerUserRoutes } from './users/users.routes.js';
import { createUsersService } from './users/users.service.js';

/** Enterprise, user, entity-role and super admin administration (4.7, D9.1–D9.4). */
export const adminModule = defineModule({
  name: 'admin',
  services: (db, { config, principals, mail }) => ({
    enterprises: createEnterprisesService({ db, tierPricesCents: config.tierPricesCents }),
    users: createUsersService({ db, principals, mail }),
    entityRoles: createEntityRolesService({ db, principals }),
    superAdmins: createSuperAdminsService({ db, principals, mail }),
  }),
  routes(api, services) {
    registerEnterpriseRoutes(api, services.enterprises);
    registerUserRoutes(api, services.users);
    registerEntityRoleRoutes(api, services.entityRoles);
    registerSuperAdminRoutes(api, services.superAdmins);
  },
});
