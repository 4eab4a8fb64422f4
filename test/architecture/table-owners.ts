import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import ts from 'typescript';
import { ROOT, SRC, parse, where, type SourceFile } from './source-files.js';

/**
 * Every table has one owner, named by the file its Kysely type lives in: `src/platform/db/tables/<owner>.ts`
 * types the tables of the module folder `src/modules/**\/<owner>/` (a module, or a part of one with its own
 * folder, as admin/users) or of the platform area `src/platform/<owner>/`. Only the owner writes them: in
 * a module, its repositories (`*.repository.ts`); in a platform area, its files. Others read them (in one
 * statement with their own rows, or through the owner's read functions) and never write.
 */

const MIGRATIONS = join(SRC, 'platform/db/migrations');
const TABLE_FILES = join(SRC, 'platform/db/tables');

/** The tables the migrations create, in order. */
export function migratedTables(): string[] {
  return readdirSync(MIGRATIONS)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .flatMap((file) => [...readFileSync(join(MIGRATIONS, file), 'utf8').matchAll(/^\s*create table (?:if not exists )?([a-z_][a-z0-9_]*)/gim)].map((m) => m[1]!));
}

/** The tables each table file types: the members of its exported `...Tables` interface, which schema.ts intersects into DB. */
export function typedTables(): Map<string, string[]> {
  const byFile = new Map<string, string[]>();
  for (const file of readdirSync(TABLE_FILES).filter((name) => name.endsWith('.ts'))) {
    const source = ts.createSourceFile(file, readFileSync(join(TABLE_FILES, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const tables = source.statements
      .filter((node): node is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(node) && node.name.text.endsWith('Tables'))
      .flatMap((node) => node.members.map((member) => member.name!.getText(source)));
    if (tables.length > 0) byFile.set(basename(file, '.ts'), tables);
  }
  return byFile;
}

/** The owner folders a table file's name may name: module folders at any depth, and platform areas. */
export function ownerFolders(name: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = join(dir, entry);
      if (!statSync(full).isDirectory()) continue;
      if (entry === name) found.push(full.slice(ROOT.length + 1).split('\\').join('/'));
      walk(full);
    }
  };
  walk(join(SRC, 'modules'));
  if (existsSync(join(SRC, 'platform', name))) found.push(`src/platform/${name}`);
  return found;
}

const QUERY_WRITES = new Set(['insertInto', 'updateTable', 'deleteFrom', 'mergeInto', 'replaceInto']);
/** The platform's writer of one record of an enterprise (src/platform/db/own-rows.ts): the table is its second argument. */
const ROW_WRITERS = new Set(['updateOwnRow']);
const RAW_WRITE = /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+([a-z_][a-z0-9_]*)/gi;

/**
 * Every write of a file: Kysely's insertInto/updateTable/deleteFrom('table [as alias]'), `updateOwnRow(db,
 * 'table', …)` and raw SQL in sql`` templates.
 */
export function writesOf(file: SourceFile, tables: ReadonlySet<string>): { table: string; at: string }[] {
  const source = parse(file);
  const writes: { table: string; at: string }[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      QUERY_WRITES.has(node.expression.name.text) &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      const table = node.arguments[0].text.split(/\s+as\s+/)[0]!.trim();
      writes.push({ table, at: where(source, node) });
    }
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && ROW_WRITERS.has(node.expression.text) && node.arguments[1] !== undefined && ts.isStringLiteralLike(node.arguments[1])) {
      writes.push({ table: node.arguments[1].text, at: where(source, node) });
    }
    if (ts.isTaggedTemplateExpression(node) && node.tag.getText(source).startsWith('sql')) {
      for (const match of node.template.getText(source).matchAll(RAW_WRITE)) {
        const table = match[1]!.toLowerCase();
        if (tables.has(table)) writes.push({ table, at: where(source, node) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return writes;
}

/** Whether a file may write the tables of an owner folder. */
export function mayWrite(path: string, ownerFolder: string): boolean {
  if (!path.startsWith(`${ownerFolder}/`)) return false;
  return ownerFolder.startsWith('src/platform/') || path.endsWith('.repository.ts');
}
