import ts from 'typescript';
import { parse, where, type SourceFile } from './source-files.js';

/**
 * Who may do what is written in policy files only (STYLE.md): each module's `<module>.policy.ts`, and the
 * platform's generic helpers in `src/platform/auth/policies.ts` (membership, super admins, assignments).
 * Anywhere else in `src/`, this suite fails on:
 * - a comparison with a role name, or of a `.role` value (`caller.role === 'assessor'`, `body.role !== x`);
 * - a `switch` on a `.role` value, or a `case` of a role name;
 * - an array of role names that is not the whole list of member roles (`['admin', 'assessor']` is a rule;
 *   `['admin', 'assessor', 'reviewer']` is the role type's domain, which the wire schemas declare; an
 *   OpenAPI `tags: ['admin']` names the document's section, not a role);
 * - a call of `requireRole` (the generic check that takes such a list);
 * - a call of any other generic helper of `src/platform/auth/policies.ts` that decides who may do what
 *   (`ASSIGNMENT_HELPERS`: membership, super admins, entity assignments, as checks and as SQL predicates). A
 *   service asks its module's policy (`require*`, `can*`, `*Scope`), which is built from these helpers, so an
 *   assignment is checked where the role is, and what the console is told (`abilities`) is the same predicate.
 * Unit tests (`*.test.ts`) and the demo (`src/demo/`, which plays fictional people and picks among them by
 * role, deciding nothing about access) are not scanned.
 */
const ROLES = new Set(['super_admin', 'admin', 'assessor', 'reviewer']);
const MEMBER_ROLES = ['admin', 'assessor', 'reviewer'];

/**
 * The generic helpers of `src/platform/auth/policies.ts` that only policy files call: every function it
 * exports except `permits` (which turns a policy's check into its predicate and decides nothing itself).
 * role-checks.test.ts checks this list against the file's exports, so a new helper is covered or named here.
 */
export const ASSIGNMENT_HELPERS = new Set([
  'requireRole',
  'requireMember',
  'isSuperAdmin',
  'requireSuperAdmin',
  'seesWholeEnterprise',
  'isAssigned',
  'requireAssigned',
  'seesLegalEntity',
  'legalEntityScope',
  'assignedScope',
]);

/** The files outside the policies that may call a helper, each with its reason. */
export const EXEMPT: Readonly<Record<string, string>> = {
  'src/platform/audit/audit-events.ts':
    "which trail records a change (a super admin's go to the platform trail, D10.3): where a change is written, not who may make it",
};

export const isPolicyFile = (path: string) => /^src\/modules\/.+\.policy\.ts$/.test(path) || path === 'src/platform/auth/policies.ts';
export const isScanned = (path: string) => !path.endsWith('.test.ts') && !path.startsWith('src/demo/');

const isRoleName = (node: ts.Node) => ts.isStringLiteralLike(node) && ROLES.has(node.text);
const isRoleValue = (node: ts.Node): boolean =>
  (ts.isPropertyAccessExpression(node) && node.name.text === 'role') ||
  (ts.isParenthesizedExpression(node) && isRoleValue(node.expression)) ||
  isRoleName(node);

/** `tags: ['admin']` in a route schema: the OpenAPI section that happens to share a role's name. */
const isOpenApiTags = (node: ts.Node) => ts.isPropertyAssignment(node.parent) && node.parent.name.getText() === 'tags';

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** `f(…)` or `policies.f(…)`: the name of what is called. */
const calledName = (callee: ts.Expression): string | undefined =>
  ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;

/** Every role check of a file, as `path:line what`. */
export function roleChecksOf(file: SourceFile): string[] {
  const source = parse(file);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind) && (isRoleValue(node.left) || isRoleValue(node.right))) {
      found.push(`${where(source, node)} compares a role: ${node.getText(source)}`);
    } else if (ts.isSwitchStatement(node) && isRoleValue(node.expression)) {
      found.push(`${where(source, node)} switches on a role`);
    } else if (ts.isCaseClause(node) && isRoleName(node.expression)) {
      found.push(`${where(source, node)} has a case of a role: ${node.expression.getText(source)}`);
    } else if (
      ts.isArrayLiteralExpression(node) &&
      node.elements.length > 0 &&
      node.elements.every(isRoleName) &&
      !isOpenApiTags(node) &&
      !MEMBER_ROLES.every((role) => node.elements.some((element) => (element as ts.StringLiteral).text === role))
    ) {
      found.push(`${where(source, node)} lists roles: ${node.getText(source)}`);
    } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'requireRole') {
      found.push(`${where(source, node)} calls requireRole`);
    } else if (ts.isCallExpression(node) && calledName(node.expression) !== undefined && ASSIGNMENT_HELPERS.has(calledName(node.expression)!)) {
      if (!(file.path in EXEMPT)) found.push(`${where(source, node)} calls ${calledName(node.expression)} outside a policy`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
