import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/platform/errors/app-error.js';
import type { EntityAssignment, Principal, Role } from '../../src/platform/auth/principal.js';

/** The enterprise of every principal below, and its legal entities and units. */
export const ENTERPRISE = '00000000-0000-4000-8000-0000000000e1';
export const ENTITY_A = '00000000-0000-4000-8000-00000000000a';
export const ENTITY_B = '00000000-0000-4000-8000-00000000000b';
export const UNIT_A1 = '00000000-0000-4000-8000-0000000000a1';
export const UNIT_A2 = '00000000-0000-4000-8000-0000000000a2';

export function principal(role: Role, assignments: EntityAssignment[] = [], userId = `user-${role}`): Principal {
  return {
    userId,
    email: `${userId}@example.test`,
    fullName: userId,
    role,
    enterpriseId: role === 'super_admin' ? null : ENTERPRISE,
    sessionId: null,
    entityAssignments: assignments,
  };
}

const wholeEntityA = [{ legal_entity_id: ENTITY_A, business_unit_id: null }];
const unitA1 = [{ legal_entity_id: ENTITY_A, business_unit_id: UNIT_A1 }];
const wholeEntityB = [{ legal_entity_id: ENTITY_B, business_unit_id: null }];

/**
 * Every role of D5 (SA, CA, AS, RV), assessors and reviewers three ways: assigned to legal entity A as a
 * whole, to its unit A1 only, or to another entity. The policy suites state an outcome for each.
 */
export const D5_PRINCIPALS = {
  super_admin: principal('super_admin'),
  client_admin: principal('admin'),
  assessor_of_entity_a: principal('assessor', wholeEntityA, 'assessor-a'),
  assessor_of_unit_a1: principal('assessor', unitA1, 'assessor-a1'),
  assessor_elsewhere: principal('assessor', wholeEntityB, 'assessor-b'),
  reviewer_of_entity_a: principal('reviewer', wholeEntityA, 'reviewer-a'),
  reviewer_of_unit_a1: principal('reviewer', unitA1, 'reviewer-a1'),
  reviewer_elsewhere: principal('reviewer', wholeEntityB, 'reviewer-b'),
} as const satisfies Record<string, Principal>;

export type D5Principal = keyof typeof D5_PRINCIPALS;

/**
 * One test per D5 principal: `expected` names an outcome for every one of them (the type refuses a table
 * that forgets a role), and `actual` computes it from the policy.
 */
export function overEveryRole<T>(rule: string, expected: Record<D5Principal, T>, actual: (who: Principal) => T | Promise<T>): void {
  describe(rule, () => {
    it.each(Object.entries(expected) as [D5Principal, T][])('%s → %j', async (who, outcome) => {
      expect(await actual(D5_PRINCIPALS[who])).toEqual(outcome);
    });
  });
}

/**
 * A rule's table in the order of D5_PRINCIPALS, row by row: super admins, client admins, then assessors
 * and reviewers each as [of entity A, of unit A1, elsewhere]. The tuples make the type refuse a short row.
 */
export function perPrincipal<T>(superAdmin: T, clientAdmin: T, assessors: readonly [T, T, T], reviewers: readonly [T, T, T]): Record<D5Principal, T> {
  return {
    super_admin: superAdmin,
    client_admin: clientAdmin,
    assessor_of_entity_a: assessors[0],
    assessor_of_unit_a1: assessors[1],
    assessor_elsewhere: assessors[2],
    reviewer_of_entity_a: reviewers[0],
    reviewer_of_unit_a1: reviewers[1],
    reviewer_elsewhere: reviewers[2],
  };
}

/** A rule that looks at the role alone, over every principal: `overRoles(rule, { admin: true }, canX)`. */
export function overRoles(rule: string, allowed: Partial<Record<Role, true>>, actual: (who: Principal) => boolean | Promise<boolean>): void {
  overEveryRole(rule, byRole(allowed), actual);
}

/**
 * The outcome of a rule that looks at the role alone (D5's rows without "assigned"): true for the roles
 * named, false for the others, whatever the assignments. `byRole({ admin: true })`: client admins only.
 */
export function byRole(allowed: Partial<Record<Role, true>>): Record<D5Principal, boolean> {
  return Object.fromEntries(
    (Object.entries(D5_PRINCIPALS) as [D5Principal, Principal][]).map(([name, who]) => [name, allowed[who.role] === true]),
  ) as Record<D5Principal, boolean>;
}

/** The error code a check throws, or null when it lets the caller through. */
export function codeOf(check: () => void): string | null {
  try {
    check();
    return null;
  } catch (error) {
    return error instanceof AppError ? error.code : 'OTHER';
  }
}
