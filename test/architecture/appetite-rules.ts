import ts from 'typescript';
import { parse, where, type SourceFile } from './source-files.js';

/**
 * Which appetite applies to a BRA (D6.9: its unit's record, else its entity's, else the enterprise default)
 * and what is above it (a residual score strictly greater than the threshold, 2.5) are written once, in
 * `src/modules/governance/appetite-rules.ts`: the SQL fragment of the applicable appetite, the SQL comparison
 * and its TypeScript twin. The register, the dashboard, the health score, the crossings and the BRA answer
 * embed them. Anywhere else in `src/`, this suite fails on:
 * - a read of `risk_appetites` outside the governance module (in SQL, or Kysely's `selectFrom` and joins):
 *   the applicable record is reached through the fragment or the governance service;
 * - the rule's ranking of the candidates by specificity (`(business_unit_id is not null)::int + …`),
 *   which is what a copy of the rule writes, in the governance module too;
 * - a comparison of a score with a threshold or an appetite: in TypeScript `<`, `<=`, `>`, `>=` between an
 *   operand that says `score` and one that says `threshold` or `appetite`; in SQL text a score compared with
 *   a threshold that follows it closely (`r.risk_score > ap.threshold_value`, `> ${threshold}`).
 * Unit tests (`*.test.ts`) and the demo are not scanned.
 */
export const HOME = 'src/modules/governance/appetite-rules.ts';
const GOVERNANCE = 'src/modules/governance/';

export const isScanned = (path: string) => !path.endsWith('.test.ts') && !path.startsWith('src/demo/') && path !== HOME;

const READS_TABLE = /\brisk_appetites\b/;
const RANKING = /(?:business_unit_id|legal_entity_id)\s+is\s+not\s+null\s*\)\s*::\s*int/i;
const SQL_COMPARISON = /score\w*\s*(?:>=?|<=?)\s*[\s\S]{0,80}?threshold|threshold\w*\s*(?:>=?|<=?)\s*[\s\S]{0,40}?score/i;
const RELATIONAL = new Set([
  ts.SyntaxKind.GreaterThanToken,
  ts.SyntaxKind.GreaterThanEqualsToken,
  ts.SyntaxKind.LessThanToken,
  ts.SyntaxKind.LessThanEqualsToken,
]);
const QUERY_TABLES = new Set(['selectFrom', 'innerJoin', 'leftJoin', 'rightJoin', 'fullJoin', 'crossJoin', 'innerJoinLateral', 'leftJoinLateral']);

/**
 * The SQL of a template as written, each substitution by name when it is one (`${threshold}`) and empty when
 * it is more (a nested template is scanned on its own), or of a plain string.
 */
function sqlTextOf(node: ts.Node, source: ts.SourceFile): string | undefined {
  if (ts.isNoSubstitutionTemplateLiteral(node) || ts.isStringLiteral(node)) return node.text;
  if (!ts.isTemplateExpression(node)) return undefined;
  const named = (expression: ts.Expression) => ts.isIdentifier(expression) || ts.isPropertyAccessExpression(expression);
  return node.templateSpans.reduce(
    (text, span) => `${text}\${${named(span.expression) ? span.expression.getText(source) : ''}}${span.literal.text}`,
    node.head.text,
  );
}

/** The table argument of Kysely's `selectFrom` or a join. */
function isQueryTable(node: ts.Node): boolean {
  // A call expression of the source read, not a call of the API: this file checks code and sends no request.
  const call = node.parent;
  return (
    ts.isStringLiteralLike(node) &&
    call !== undefined &&
    ts.isCallExpression(call) &&
    call.arguments[0] === node &&
    ts.isPropertyAccessExpression(call.expression) &&
    QUERY_TABLES.has(call.expression.name.text)
  );
}

/** Every copy of the applicable-appetite rule and every appetite comparison of a file, as `path:line what`. */
export function appetiteRulesOf(file: SourceFile): string[] {
  const source = parse(file);
  const inGovernance = file.path.startsWith(GOVERNANCE);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    // A table named to Kysely (`selectFrom('risk_appetites')`) is checked as such below, not as SQL text.
    const text = isQueryTable(node) ? undefined : sqlTextOf(node, source);
    if (text !== undefined) {
      if (!inGovernance && READS_TABLE.test(text)) found.push(`${where(source, node)} reads risk_appetites in SQL`);
      if (RANKING.test(text)) found.push(`${where(source, node)} ranks appetite records by specificity`);
      if (SQL_COMPARISON.test(text)) found.push(`${where(source, node)} compares a score with a threshold in SQL`);
    }
    if (!inGovernance && isQueryTable(node) && READS_TABLE.test((node as ts.StringLiteralLike).text)) {
      found.push(`${where(source, node)} reads risk_appetites`);
    }
    if (ts.isBinaryExpression(node) && RELATIONAL.has(node.operatorToken.kind)) {
      const [left, right] = [node.left.getText(source), node.right.getText(source)];
      const says = (text: string, word: RegExp) => word.test(text);
      const scoreAndThreshold = (a: string, b: string) => says(a, /score/i) && says(b, /threshold|appetite/i);
      if (scoreAndThreshold(left, right) || scoreAndThreshold(right, left)) {
        found.push(`${where(source, node)} compares a score with an appetite: ${node.getText(source)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
