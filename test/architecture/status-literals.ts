import ts from 'typescript';
import { BRA_STATUSES } from '../../src/modules/bras/bras.lifecycle.js';
import { parse, where, type SourceFile } from './source-files.js';

/**
 * A BRA's statuses are written in one place, the lifecycle (`src/modules/bras/bras.lifecycle.ts`): its list,
 * its moves, its named sets (editable, commentable, live, approved, not cancelled) and their SQL fragments.
 * Anywhere else in `src/`, this suite fails on a status literal:
 * - in SQL, that is in any string or template text: a quoted status (`b.status = 'approved'`);
 * - in TypeScript, a string literal that is a status. `draft`, `under_review` and `cancelled` name nothing
 *   else and count wherever they stand. `in_progress` is also a mitigation action's status and `approved` a
 *   snapshot's kind, so these two count where what they stand in speaks of a status: a comparison, a call, a
 *   property, a variable or a switch whose text says `status` (`bra.status === 'approved'`,
 *   `.where('b.status', '=', 'approved')`, `{ status: 'in_progress' }`) or a list or union holds them beside
 *   a word only a status is (`['draft', 'in_progress']`). A list or union that holds a word of another
 *   vocabulary is that vocabulary (`['created', 'in_progress', 'completed']`, an action's statuses).
 * An OpenAPI example (a value under `example` or `examples`) shows the wire and decides nothing: it is left out.
 */
const STATUSES = new Set<string>(BRA_STATUSES);
const SHARED = new Set(['in_progress', 'approved']);
const QUOTED = new RegExp(`'(${BRA_STATUSES.join('|')})'`, 'g');

export const HOME = 'src/modules/bras/bras.lifecycle.ts';

/** The files of `src/` that may write statuses, each with its reason. */
export const EXEMPT: Readonly<Record<string, string>> = {
  'src/platform/db/tables/bras.ts':
    "the status column's type: the platform imports no module, and the lifecycle's list is checked against this type when it compiles",
};

/**
 * Not scanned: unit tests (`*.test.ts`), which state the statuses they expect, and the demo (`src/demo/`), whose
 * data names the status each fictional BRA ends in (typed with the column's type, so a renamed status fails to
 * compile there) and which decides nothing. Migrations are SQL files (the CHECK constraint), not TypeScript.
 */
export const isScanned = (path: string) => !path.endsWith('.test.ts') && !path.startsWith('src/demo/') && path !== HOME && !(path in EXEMPT);

const literalWords = (node: ts.Node): string[] =>
  ts.isStringLiteralLike(node) ? [node.text] : ts.isLiteralTypeNode(node) && ts.isStringLiteralLike(node.literal) ? [node.literal.text] : [];

/** The other members of the list or union a literal stands in, as words (none when it stands alone). */
function siblingWords(literal: ts.Node): string[] {
  let node = literal.parent;
  if (ts.isLiteralTypeNode(node)) node = node.parent;
  const members = ts.isArrayLiteralExpression(node) ? node.elements : ts.isUnionTypeNode(node) ? node.types : undefined;
  return (members ?? []).flatMap(literalWords);
}

function isExample(literal: ts.Node): boolean {
  for (let node: ts.Node | undefined = literal.parent; node !== undefined; node = node.parent) {
    if (ts.isPropertyAssignment(node) && ['example', 'examples'].includes(node.name.getText())) return true;
  }
  return false;
}

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/**
 * The text that gives a literal its meaning: the names of the properties it stands in (`{ status: { to: x } }`
 * gives `to status`), then the nearest comparison, call, variable or switch around them.
 */
function contextOf(literal: ts.Node, source: ts.SourceFile): string {
  const names: string[] = [];
  for (let node: ts.Node | undefined = literal.parent; node !== undefined; node = node.parent) {
    if (ts.isPropertyAssignment(node)) {
      names.push(node.name.getText(source));
      continue;
    }
    if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind)) return [...names, node.getText(source)].join(' ');
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const callee = node.expression;
      const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : callee.getText(source);
      return [...names, name, ...(node.arguments ?? []).map((argument) => argument.getText(source))].join(' ');
    }
    if (ts.isVariableDeclaration(node) || ts.isPropertySignature(node) || ts.isTypeAliasDeclaration(node)) return [...names, node.name.getText(source)].join(' ');
    if (ts.isCaseClause(node)) return [...names, node.parent.parent.expression.getText(source)].join(' ');
    if (ts.isStatement(node)) break;
  }
  return names.join(' ');
}

/** The text between the delimiters of a string or of a template's part, as written: where SQL is. */
function textOf(node: ts.Node, source: ts.SourceFile): string | undefined {
  const raw = node.getText(source);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateTail(node)) return raw.slice(1, -1);
  if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node)) return raw.slice(1, -2);
  return undefined;
}

/** Every status literal of a file, as `path:line what`. */
export function statusLiteralsOf(file: SourceFile): string[] {
  const source = parse(file);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const text = textOf(node, source);
    const quoted = text === undefined ? [] : [...text.matchAll(QUOTED)];
    if (quoted.length > 0) {
      for (const match of quoted) {
        // The text starts one character after the node (its quote, backtick or brace).
        const line = source.getLineAndCharacterOfPosition(node.getStart(source) + 1 + match.index).line + 1;
        found.push(`${source.fileName}:${line} writes the status '${match[1]}' in SQL`);
      }
    } else if (ts.isStringLiteralLike(node) && STATUSES.has(node.text) && !isExample(node)) {
      const siblings = siblingWords(node);
      // Beside a word that is no status: another vocabulary. Beside a word only a status is: a status list.
      const otherVocabulary = siblings.some((word) => !STATUSES.has(word));
      const statusList = siblings.some((word) => STATUSES.has(word) && !SHARED.has(word));
      if (!otherVocabulary && (!SHARED.has(node.text) || statusList || /status/i.test(contextOf(node, source)))) {
        found.push(`${where(source, node)} names the status '${node.text}'`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
