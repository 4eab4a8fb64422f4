import ts from 'typescript';
import { parse, where, type SourceFile } from './source-files.js';

/**
 * Interface 2.9: "`delete` covers archiving as well as deletion". An archive is recorded by one place,
 * `archiveVersioned` (src/platform/changes/versioned-change.ts), which writes `delete` entries itself. So in
 * a service (`*.service.ts`), a function whose name starts with `archive` must call `archiveVersioned`, and
 * must not write an audit entry of its own (`recordChange`, `writeAudit`, `writeAuditEntries`), whose
 * action it would pick again. test/platform/archive-audits.test.ts checks the same over HTTP on every
 * archive route of the route table.
 */
const AUDIT_WRITERS = new Set(['recordChange', 'writeAudit', 'writeAuditEntries']);

export const isServiceFile = (path: string) => path.startsWith('src/') && path.endsWith('.service.ts');

function nameOf(node: ts.Node): string | null {
  if ((ts.isMethodDeclaration(node) || ts.isFunctionDeclaration(node)) && node.name !== undefined && ts.isIdentifier(node.name)) return node.name.text;
  if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) {
    return node.name.text;
  }
  return null;
}

function callsIn(body: ts.Node): string[] {
  const names: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) names.push(node.expression.text);
    ts.forEachChild(node, visit);
  };
  visit(body);
  return names;
}

/** Every archive function of a service that does not go through `archiveVersioned`, as `path:line what`. */
export function archiveBreachesOf(file: SourceFile): string[] {
  const source = parse(file);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const name = nameOf(node);
    if (name !== null && /^archive/.test(name)) {
      const calls = callsIn(node);
      if (!calls.includes('archiveVersioned')) found.push(`${where(source, node)} ${name} archives without archiveVersioned`);
      const own = calls.filter((call) => AUDIT_WRITERS.has(call));
      if (own.length > 0) found.push(`${where(source, node)} ${name} writes its own audit entry (${own.join(', ')})`);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
