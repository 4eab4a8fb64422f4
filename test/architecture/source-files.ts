import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The repository's root and its `src/`, whatever the directory the suite runs from. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SRC = join(ROOT, 'src');

export interface SourceFile {
  /** Relative to the repository root, with forward slashes: `src/modules/bras/assessment/bras.service.ts`. */
  path: string;
  text: string;
}

/** Every TypeScript file of `src/`, unit tests included (`*.test.ts`) unless `withTests` is false. */
export function sourceFiles({ withTests = true } = {}): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && (withTests || !entry.name.endsWith('.test.ts'))) {
        files.push({ path: relative(ROOT, full).split('\\').join('/'), text: readFileSync(full, 'utf8') });
      }
    }
  };
  walk(SRC);
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

export function parse(file: SourceFile): ts.SourceFile {
  return ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

/**
 * The files of `src/` a file imports, type-only imports and re-exports included (a cycle of types is a
 * cycle of the design all the same). Specifiers are ESM paths ending in `.js`, as the sources write them.
 */
export function importsOf(file: SourceFile): string[] {
  const { importedFiles } = ts.preProcessFile(file.text, true, false);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => join(dirname(file.path), specifier.replace(/\.js$/, '.ts')).split('\\').join('/'));
}

/** Where a node starts, as `path:line`, for failure messages. */
export function where(source: ts.SourceFile, node: ts.Node): string {
  return `${source.fileName}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
}
