import { describe, expect, it } from 'vitest';
import { byRole, ENTERPRISE, codeOf, overEveryRole, principal } from '../../../test/support/principals.js';
import {
  administeredEnterprise,
  canAddMember,
  canManageEnterprises,
  canManageEntityRoles,
  canManageMember,
  canManageSuperAdmins,
  requireEnterpriseAdmin,
} from './admin.policy.js';

const OTHER_ENTERPRISE = '00000000-0000-4000-8000-0000000000e2';

describe('admin.policy (D5)', () => {
  overEveryRole(
    '/admin/enterprises: super admins only',
    byRole({ super_admin: true }),
    (who) => canManageEnterprises(who),
  );

  overEveryRole(
    'POST /admin/enterprises/{id}/users of the caller’s enterprise: [assessor, reviewer, admin]',
    {
      super_admin: [true, true, true],
      client_admin: [true, true, false],
      assessor_of_entity_a: [false, false, false],
      assessor_of_unit_a1: [false, false, false],
      assessor_elsewhere: [false, false, false],
      reviewer_of_entity_a: [false, false, false],
      reviewer_of_unit_a1: [false, false, false],
      reviewer_elsewhere: [false, false, false],
    },
    (who) => (['assessor', 'reviewer', 'admin'] as const).map((role) => canAddMember(who, ENTERPRISE, role)),
  );

  overEveryRole(
    'GET, POST, DELETE /admin/enterprises/{id}/users of another enterprise: super admins; everyone else 404',
    {
      super_admin: null,
      client_admin: 'NOT_FOUND',
      assessor_of_entity_a: 'NOT_FOUND',
      assessor_of_unit_a1: 'NOT_FOUND',
      assessor_elsewhere: 'NOT_FOUND',
      reviewer_of_entity_a: 'NOT_FOUND',
      reviewer_of_unit_a1: 'NOT_FOUND',
      reviewer_elsewhere: 'NOT_FOUND',
    },
    (who) => codeOf(() => requireEnterpriseAdmin(who, OTHER_ENTERPRISE)),
  );

  overEveryRole(
    'resend an invitation, reactivate a member of the caller’s enterprise: [assessor, reviewer, admin]',
    {
      super_admin: [true, true, true],
      client_admin: [true, true, false],
      assessor_of_entity_a: [false, false, false],
      assessor_of_unit_a1: [false, false, false],
      assessor_elsewhere: [false, false, false],
      reviewer_of_entity_a: [false, false, false],
      reviewer_of_unit_a1: [false, false, false],
      reviewer_elsewhere: [false, false, false],
    },
    (who) => (['assessor', 'reviewer', 'admin'] as const).map((role) => canManageMember(who, ENTERPRISE, role)),
  );

  overEveryRole('/admin/super-admins: super admins only', byRole({ super_admin: true }), (who) => canManageSuperAdmins(who));

  overEveryRole(
    '/admin/users/{id}/entity-roles: super admins and client admins',
    byRole({ super_admin: true, admin: true }),
    (who) => canManageEntityRoles(who),
  );

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
