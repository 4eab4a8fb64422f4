import type { Executor } from '../../platform/db/schema.js';
import type { Principal } from '../../platform/auth/principal.js';
import { grantableRoles } from '../admin/admin.policy.js';
import { callerAbilities } from './caller-abilities.js';
import { findEnterpriseName, listAssignments, listServiceAccountAssignments } from './me.repository.js';

export interface MeServiceDeps {
  db: Executor;
}

export function createMeService({ db }: MeServiceDeps) {
  return {
    /** D4.4: who the caller is, from our records; a super admin has no enterprise and no assignments; a service account is marked as one. */
    async describe(principal: Principal) {
      const enterpriseId = principal.enterpriseId;
      if (enterpriseId === null) return presentMe(principal, null, []);
      const [enterpriseName, assignments] = await Promise.all([
        findEnterpriseName(db, enterpriseId),
        principal.kind === 'service_account'
          ? listServiceAccountAssignments(db, enterpriseId, principal.userId)
          : listAssignments(db, enterpriseId, principal.userId),
      ]);
      return presentMe(principal, enterpriseName, assignments);
    },
  };
}

export type MeService = ReturnType<typeof createMeService>;

function presentMe<A>(principal: Principal, enterpriseName: string | null, assignments: A[]) {
  return {
    user_id: principal.userId,
    email: principal.email,
    full_name: principal.fullName,
    role: principal.role,
    enterprise_id: principal.enterpriseId,
    enterprise_name: enterpriseName,
    entity_assignments: assignments,
    kind: principal.kind ?? ('user' as const),
    abilities: callerAbilities(principal),
    grantable_roles: grantableRoles(principal),
  };
}
