import { describe, expect, it } from 'vitest';
import { codeOf, principal, overRoles } from '../../../test/support/principals.js';
import { directoryDecidesRoleOf, requireIntegrationAdmin, strongestMappedRole } from './integrations.policy.js';

describe('integrations policy', () => {
  overRoles('integration credentials are managed by client admins of the enterprise only', { admin: true }, (who) => codeOf(() => requireIntegrationAdmin(who)) === null);

  it("a service account's token, even an admin one, cannot manage integration credentials", () => {
    expect(codeOf(() => requireIntegrationAdmin({ ...principal('admin'), kind: 'service_account' }))).toBe('FORBIDDEN');
  });

  it('of several mapped groups assessor wins over reviewer; none mapped is null', () => {
    expect(strongestMappedRole(['reviewer', 'assessor'])).toBe('assessor');
    expect(strongestMappedRole(['reviewer'])).toBe('reviewer');
    expect(strongestMappedRole([])).toBeNull();
  });

  it("the directory decides assessors' and reviewers' roles, never a client admin's", () => {
    expect(directoryDecidesRoleOf('assessor')).toBe(true);
    expect(directoryDecidesRoleOf('reviewer')).toBe(true);
    expect(directoryDecidesRoleOf('admin')).toBe(false);
  });
});
