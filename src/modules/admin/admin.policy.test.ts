import { describe, expect, it } from 'vitest';
import { ENTERPRISE, codeOf, overEveryRole, principal, perPrincipal, overRoles } from '../../../test/support/principals.js';
import {
  administeredEnterprise,
  canAddMember,
  canManageEnterprises,
  canManageEntityRoles,
  canManageMember,
  canManageSuperAdmins,
  canChangeRole,
  requireEnterpriseAdmin,
} from './admin.policy.js';

const OTHER_ENTERPRISE = '00000000-0000-4000-8000-0000000000e2';

describe('admin.policy (D5)', () => {
  overRoles('/admin/enterprises: super admins only', { super_admin: true }, (who) => canManageEnterprises(who));

  overEveryRole(
    'POST /admin/enterprises/{id}/users of the caller’s enterprise: [assessor, reviewer, admin]',
    perPrincipal([true, true, true], [true, true, false], [[false, false, false], [false, false, false], [false, false, false]], [[false, false, false], [false, false, false], [false, false, false]]),
    (who) => (['assessor', 'reviewer', 'admin'] as const).map((role) => canAddMember(who, ENTERPRISE, role)),
  );

  overEveryRole(
    'GET, POST, DELETE /admin/enterprises/{id}/users of another enterprise: super admins; everyone else 404',
    perPrincipal(null, 'NOT_FOUND', ['NOT_FOUND', 'NOT_FOUND', 'NOT_FOUND'], ['NOT_FOUND', 'NOT_FOUND', 'NOT_FOUND']),
    (who) => codeOf(() => requireEnterpriseAdmin(who, OTHER_ENTERPRISE)),
  );

  overEveryRole(
    'resend an invitation, reactivate a member of the caller’s enterprise: [assessor, reviewer, admin]',
    perPrincipal([true, true, true], [true, true, false], [[false, false, false], [false, false, false], [false, false, false]], [[false, false, false], [false, false, false], [false, false, false]]),
    (who) => (['assessor', 'reviewer', 'admin'] as const).map((role) => canManageMember(who, ENTERPRISE, role)),
  );

  overEveryRole(
    'PATCH a member of the caller’s enterprise: assessor→reviewer, reviewer→assessor, assessor→admin, admin→reviewer',
    perPrincipal([true, true, true, true], [true, true, false, false], [[false, false, false, false], [false, false, false, false], [false, false, false, false]], [[false, false, false, false], [false, false, false, false], [false, false, false, false]]),
    (who) =>
      ([['assessor', 'reviewer'], ['reviewer', 'assessor'], ['assessor', 'admin'], ['admin', 'reviewer']] as const).map(([from, to]) =>
        canChangeRole(who, ENTERPRISE, from, to),
      ),
  );

  overRoles('/admin/super-admins: super admins only', { super_admin: true }, (who) => canManageSuperAdmins(who));

  overRoles('/admin/users/{id}/entity-roles: super admins and client admins', { super_admin: true, admin: true }, (who) => canManageEntityRoles(who));

  it('enterprise administration: any enterprise for a super admin, own for a client admin, 404 across (D2.2)', () => {
    expect(codeOf(() => requireEnterpriseAdmin(principal('super_admin'), OTHER_ENTERPRISE))).toBeNull();
    expect(codeOf(() => requireEnterpriseAdmin(principal('admin'), ENTERPRISE))).toBeNull();
    expect(codeOf(() => requireEnterpriseAdmin(principal('admin'), OTHER_ENTERPRISE))).toBe('NOT_FOUND');
    expect(codeOf(() => requireEnterpriseAdmin(principal('assessor'), ENTERPRISE))).toBe('FORBIDDEN');
    expect(codeOf(() => requireEnterpriseAdmin(principal('assessor'), OTHER_ENTERPRISE))).toBe('NOT_FOUND');
  });

  it('a super admin administers the members of any enterprise; a client admin those of their own', () => {
    expect(administeredEnterprise(principal('super_admin'))).toBeNull();
    expect(administeredEnterprise(principal('admin'))).toBe(ENTERPRISE);
  });
});
