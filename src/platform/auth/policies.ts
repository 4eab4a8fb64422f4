import { sql, type Expression, type SqlBool } from 'kysely';
import { AppError, forbidden } from '../errors/app-error.js';
import type { Principal, Role } from './principal.js';

/**
 * The generic pieces of who may do what (decisions.md D5): membership, super admins, entity assignments
 * as checks and as SQL predicates. Each module's rules live in its `<module>.policy.ts`, built from these;
 * this file and the policy files are the only places that name roles (test/architecture/role-checks.test.ts).
 * Services call the policies; the error handler turns their FORBIDDEN into a 403 and an `access_denied`
 * audit entry.
 */

export function requireRole(principal: Principal, roles: readonly Role[], what = 'this action'): void {
  if (!roles.includes(principal.role)) throw forbidden(`Your role may not perform ${what}`);
}

/** Enterprise data outside /admin and /me: super admins administer the platform, not risk data. */
export function requireMember(principal: Principal): asserts principal is Principal & { enterpriseId: string } {
  if (principal.enterpriseId === null) throw forbidden('Super admins have no access to enterprise risk data');
}

export function isSuperAdmin(principal: Pick<Principal, 'role'>): boolean {
  return principal.role === 'super_admin';
}

export function requireSuperAdmin(principal: Principal): void {
  if (!isSuperAdmin(principal)) throw forbidden('Only super admins may do this');
}

/**
 * A policy's check as a predicate: true when it lets the principal through, false when it refuses
 * (FORBIDDEN, or NOT_FOUND where a refusal must not confirm that something exists). Each rule is written
 * once, as the check services call, and named as a predicate for whoever asks "may they?".
 */
export function permits(check: () => void): boolean {
  try {
    check();
    return true;
  } catch (error) {
    if (error instanceof AppError && (error.code === 'FORBIDDEN' || error.code === 'NOT_FOUND')) return false;
    throw error;
  }
}

/** Admin and super admin see everything of an enterprise; assessors and reviewers their assignments. */
export function seesWholeEnterprise(principal: Principal): boolean {
  return principal.role === 'admin' || principal.role === 'super_admin';
}

/**
 * D5 "assigned": an entity role for the legal entity with a null business unit, or for exactly the
 * resource's business unit.
 */
export function isAssigned(principal: Principal, legalEntityId: string, businessUnitId: string | null): boolean {
  if (seesWholeEnterprise(principal)) return true;
  return principal.entityAssignments.some(
    (a) =>
      a.legal_entity_id === legalEntityId &&
      (a.business_unit_id === null || (businessUnitId !== null && a.business_unit_id === businessUnitId)),
  );
}

export function requireAssigned(principal: Principal, legalEntityId: string, businessUnitId: string | null): void {
  if (!isAssigned(principal, legalEntityId, businessUnitId)) {
    throw forbidden('You are not assigned to this legal entity or business unit');
  }
}

/** A legal entity is visible when any assignment names it (whole entity or one of its units). */
export function seesLegalEntity(principal: Principal, legalEntityId: string): boolean {
  return seesWholeEnterprise(principal) || principal.entityAssignments.some((a) => a.legal_entity_id === legalEntityId);
}

/** `seesLegalEntity` as a SQL predicate over a legal entity id column. Admins get `true`. */
export function legalEntityScope(principal: Principal, legalEntityColumn: string): Expression<SqlBool> {
  if (seesWholeEnterprise(principal)) return sql<SqlBool>`true`;
  const ids = [...new Set(principal.entityAssignments.map((a) => a.legal_entity_id))];
  if (ids.length === 0) return sql<SqlBool>`false`;
  return sql<SqlBool>`${sql.ref(legalEntityColumn)} in (${sql.join(ids)})`;
}

/**
 * The same rule as a SQL predicate over a row's legal entity and business unit columns, so that list
 * pages and counts only ever contain what the caller may see. Admins get `true`.
 */
export function assignedScope(
  principal: Principal,
  legalEntityColumn: string,
  businessUnitColumn: string | null,
): Expression<SqlBool> {
  if (seesWholeEnterprise(principal)) return sql<SqlBool>`true`;
  const entity = sql.ref(legalEntityColumn);
  const clauses = principal.entityAssignments.flatMap((a) => {
    if (a.business_unit_id === null) return [sql<SqlBool>`${entity} = ${a.legal_entity_id}`];
    // A unit-level assignment covers only rows of that unit; rows without a unit column are not covered.
    if (businessUnitColumn === null) return [];
    return [sql<SqlBool>`(${entity} = ${a.legal_entity_id} and ${sql.ref(businessUnitColumn)} = ${a.business_unit_id})`];
  });
  return clauses.length === 0 ? sql<SqlBool>`false` : sql<SqlBool>`(${sql.join(clauses, sql` or `)})`;
}
