import { describe, expect, it } from 'vitest';
import * as policies from '../../src/platform/auth/policies.js';
import { ASSIGNMENT_HELPERS, EXEMPT, isPolicyFile, isScanned, roleChecksOf } from './role-checks.js';
import { sourceFiles } from './source-files.js';

/** The rule and what counts as a role check: role-checks.ts. */
describe('role checks live in policy files only', () => {
  it('no file of src/ outside the policy files compares, switches on or lists roles', () => {
    const outside = sourceFiles()
      .filter((file) => isScanned(file.path) && !isPolicyFile(file.path))
      .flatMap(roleChecksOf);
    expect(outside).toEqual([]);
  });

  it('every module with a rule has its policy file, and the policy files do hold the checks', () => {
    const files = sourceFiles({ withTests: false });
    const policies = files.filter((file) => isPolicyFile(file.path));
    expect(policies.map((file) => file.path)).toEqual(
      expect.arrayContaining([
        'src/modules/actions/actions.policy.ts',
        'src/modules/admin/admin.policy.ts',
        'src/modules/alerts/alerts.policy.ts',
        'src/modules/audit-trail/audit-trail.policy.ts',
        'src/modules/bras/bras.policy.ts',
        'src/modules/controls/controls.policy.ts',
        'src/modules/governance/governance.policy.ts',
        'src/modules/legal-entities/legal-entities.policy.ts',
        'src/modules/risk-scenarios/risk-scenarios.policy.ts',
        'src/platform/auth/policies.ts',
      ]),
    );
    expect(policies.flatMap(roleChecksOf).length).toBeGreaterThan(10);
  });

  it('the scan sees each kind of role check, and leaves data that only mentions a role alone', () => {
    const checks = (text: string) => roleChecksOf({ path: 'src/modules/x/x.service.ts', text }).map((line) => line.split(' ').slice(1, 3).join(' '));
    expect(checks(`if (caller.role === 'assessor') deny();`)).toEqual(['compares a']);
    expect(checks(`const admin = 'admin' == user.kind;`)).toEqual(['compares a']);
    expect(checks(`if (body.role !== wanted) deny();`)).toEqual(['compares a']);
    expect(checks(`switch (caller.role) { default: }`)).toEqual(['switches on']);
    expect(checks(`switch (kind) { case 'reviewer': break; }`)).toEqual(['has a']);
    expect(checks(`const EDITORS = ['admin', 'assessor'] as const;`)).toEqual(['lists roles:']);
    expect(checks(`requireRole(caller, roles, 'x');`)).toEqual(['calls requireRole']);
    expect(checks(`const FIELDS = ['name', 'period', 'assessor'] as const;`)).toEqual([]);
    expect(checks(`export const schema = { tags: ['admin'], operationId: 'admin.users.list' };`)).toEqual([]);
    expect(checks(`export const schema = { allowed: ['admin'] };`)).toEqual(['lists roles:']);
    expect(checks(`export const MEMBER_ROLES = ['admin', 'assessor', 'reviewer'] as const;`)).toEqual([]);
    expect(checks(`type Role = 'admin' | 'reviewer'; const row = { role: 'admin' as Role };`)).toEqual([]);
  });

  it('fails on a planted breach: an assignment or membership helper called outside a policy', () => {
    const checks = (text: string) => roleChecksOf({ path: 'src/modules/x/x.service.ts', text }).map((line) => line.split(' ').slice(1).join(' '));
    expect(checks(`requireAssigned(caller, bra.legal_entity_id, bra.business_unit_id);`)).toEqual(['calls requireAssigned outside a policy']);
    expect(checks(`if (!seesLegalEntity(caller, id)) throw forbidden('no');`)).toEqual(['calls seesLegalEntity outside a policy']);
    expect(checks(`const scope = assignedScope(caller, 'b.legal_entity_id', 'b.business_unit_id');`)).toEqual(['calls assignedScope outside a policy']);
    expect(checks(`requireMember(caller);`)).toEqual(['calls requireMember outside a policy']);
    expect(checks(`if (auth.seesWholeEnterprise(caller)) return all;`)).toEqual(['calls seesWholeEnterprise outside a policy']);
    expect(checks(`const where = legalEntityScope(caller, 'le.id');`)).toEqual(['calls legalEntityScope outside a policy']);
    // What a policy exports is what services call; `permits` turns a check into its predicate.
    expect(checks(`requireBraReader(caller, bra); const ok = permits(() => requireBraEditor(caller, bra));`)).toEqual([]);
    // A policy file is where these calls belong.
    expect(roleChecksOf({ path: 'src/modules/x/x.policy.ts', text: `requireAssigned(caller, a, b);` }).filter((l) => l.includes('outside'))).toHaveLength(1);
    expect(isPolicyFile('src/modules/x/x.policy.ts')).toBe(true);
  });

  it('the helper list is every decision of src/platform/auth/policies.ts, and every exemption exists', () => {
    const exported = Object.entries(policies).filter(([, value]) => typeof value === 'function').map(([name]) => name);
    expect(exported.filter((name) => name !== 'permits').sort()).toEqual([...ASSIGNMENT_HELPERS].sort());
    const paths = new Set(sourceFiles().map((file) => file.path));
    for (const path of Object.keys(EXEMPT)) expect(paths.has(path), path).toBe(true);
  });
});
