import type { Executor } from '../../platform/db/schema.js';
import type { Principal } from '../../platform/auth/principal.js';
import { findEnterpriseName, listAssignments } from './me.repository.js';

export async function describeCaller(db: Executor, principal: Principal) {
  const enterpriseId = principal.enterpriseId;
  return {
    user_id: principal.userId,
    email: principal.email,
    full_name: principal.fullName,
    role: principal.role,
    enterprise_id: enterpriseId,
    enterprise_name: enterpriseId === null ? null : await findEnterpriseName(db, enterpriseId),
    entity_assignments: enterpriseId === null ? [] : await listAssignments(db, enterpriseId, principal.userId),
  };
}
