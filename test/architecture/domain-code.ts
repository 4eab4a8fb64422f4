import ts from 'typescript';
import { parse, where, type SourceFile } from './source-files.js';

/**
 * Services speak the domain, not HTTP (STYLE.md): a module's services, repositories, policies, presenters
 * and pure files take what they need as arguments and return what they changed; the routes turn requests
 * into calls and answers into responses. So outside routes files (`*.routes.ts`), the module files
 * (`*.module.ts`) and the identity module's protocol room (`src/modules/identity/provider/`, which *is* the
 * `/auth/v1` protocol), no file of `src/modules/` or of the demo may import:
 * - from `fastify` or `@fastify/*`, but for the logger's type (`FastifyBaseLogger`, the app's pino logger);
 * - the platform's request machinery: `platform/http/conditional/` (ETags, If-Match headers, answers),
 *   `platform/idempotency/`, the gate (`platform/auth/authenticate`), rate-limit hooks.
 * Paging maths (`platform/http/pagination`) and the OpenAPI schema helpers are not HTTP types.
 */
const ALLOWED_FASTIFY_NAMES = new Set(['FastifyBaseLogger']);
const REQUEST_MACHINERY = [/platform\/http\/conditional\//, /platform\/idempotency\//, /platform\/auth\/authenticate\.js$/, /platform\/http\/rate-limit\//];

export const isDomainFile = (path: string) =>
  (path.startsWith('src/modules/') || path.startsWith('src/demo/')) &&
  !path.endsWith('.routes.ts') &&
  !path.endsWith('.module.ts') &&
  !path.endsWith('.test.ts') &&
  !path.startsWith('src/modules/identity/provider/');

/** Every import of a file that brings HTTP into domain code, as `path:line what`. */
export function httpImportsOf(file: SourceFile): string[] {
  const source = parse(file);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const specifier = statement.moduleSpecifier;
    if (specifier === undefined || !ts.isStringLiteral(specifier)) continue;
    const from = specifier.text;
    if (from === 'fastify' || from.startsWith('@fastify/')) {
      const names = importedNames(statement);
      const foreign = names === null ? [from] : names.filter((name) => !ALLOWED_FASTIFY_NAMES.has(name));
      if (foreign.length > 0) found.push(`${where(source, statement)} imports ${foreign.join(', ')} from ${from}`);
    } else if (REQUEST_MACHINERY.some((pattern) => pattern.test(from))) {
      found.push(`${where(source, statement)} imports the request machinery: ${from}`);
    }
  }
  return found;
}

/** The names an import takes (null for a namespace or default import, or a re-export of everything). */
function importedNames(statement: ts.ImportDeclaration | ts.ExportDeclaration): string[] | null {
  if (ts.isExportDeclaration(statement)) {
    return statement.exportClause !== undefined && ts.isNamedExports(statement.exportClause) ? statement.exportClause.elements.map((e) => (e.propertyName ?? e.name).text) : null;
  }
  const clause = statement.importClause;
  if (clause === undefined || clause.name !== undefined) return null;
  const bindings = clause.namedBindings;
  if (bindings === undefined || !ts.isNamedImports(bindings)) return null;
  return bindings.elements.map((element) => (element.propertyName ?? element.name).text);
}
