import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderCycles, importCycles } from './import-cycles.js';
import { SRC, importsOf, sourceFiles } from './source-files.js';

/** Where folders must layer: the platform, and each module (its rooms, and the rooms' own folders). */
const layeredRoots = () => [
  'src/platform',
  ...readdirSync(join(SRC, 'modules'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `src/modules/${entry.name}`),
];

describe('the import graph of src/ has no cycle', () => {
  it('no file reaches itself through its imports, type-only imports included', () => {
    const graph = new Map(sourceFiles().map((file) => [file.path, importsOf(file)]));
    expect(importCycles(graph)).toEqual([]);
  });

  it('the folders layer: no cycle between the folders of src/platform, nor between the rooms of a module, at any depth', () => {
    const graph = new Map(sourceFiles().map((file) => [file.path, importsOf(file)]));
    const roots = layeredRoots();
    expect(roots.length).toBeGreaterThan(10);
    expect(roots.flatMap((root) => folderCycles(graph, root))).toEqual([]);
  });

  it('the platform imports no module (src/platform/ stands below src/modules/)', () => {
    const upward = sourceFiles()
      .filter((file) => file.path.startsWith('src/platform/') && !file.path.endsWith('.test.ts'))
      .flatMap((file) => importsOf(file).filter((target) => target.startsWith('src/modules/')).map((target) => `${file.path} → ${target}`));
    expect(upward).toEqual([]);
  });

  it('every relative import names a file of src/ (the graph the check walks is complete)', () => {
    const files = sourceFiles();
    const known = new Set(files.map((file) => file.path));
    const unresolved = files.flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith('src/') && !known.has(target))
        .map((target) => `${file.path} → ${target}`),
    );
    expect(unresolved).toEqual([]);
  });

  it('the check sees a cycle: two files importing each other, and a longer ring', () => {
    const pair = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(importCycles(pair)).toEqual([['a.ts', 'b.ts']]);
    const ring = new Map([
      ['secrets.ts', ['signing-keys.ts']],
      ['signing-keys.ts', ['access-token.ts']],
      ['access-token.ts', ['secrets.ts']],
      ['leaf.ts', []],
    ]);
    expect(importCycles(ring)).toEqual([['access-token.ts', 'secrets.ts', 'signing-keys.ts']]);
    expect(importCycles(new Map([['self.ts', ['self.ts']]]))).toEqual([['self.ts']]);
  });

  it('the folder check sees two folders that import each other where no file reaches itself', () => {
    const graph = new Map([
      ['src/platform/db/constraint-errors.ts', ['src/platform/http/errors.ts']],
      ['src/platform/http/errors.ts', []],
      ['src/platform/http/health.ts', ['src/platform/db/engine.ts']],
      ['src/platform/db/engine.ts', []],
    ]);
    expect(importCycles(graph)).toEqual([]);
    expect(folderCycles(graph, 'src/platform')).toEqual([{ folder: 'src/platform', members: ['db/', 'http/'] }]);
    // A file directly in a folder is a floor of its own: module.ts → http/, http/ → module.ts is a loop.
    const contract = new Map([
      ['src/platform/module.ts', ['src/platform/http/rate-limit/store.ts']],
      ['src/platform/http/rate-limit/store.ts', []],
      ['src/platform/http/strict-inputs.ts', ['src/platform/module.ts']],
    ]);
    expect(importCycles(contract)).toEqual([]);
    expect(folderCycles(contract, 'src/platform')).toEqual([{ folder: 'src/platform', members: ['http/', 'module.ts'] }]);
    // Deeper down: two rooms of a module, and two folders inside one platform folder (found there, not above).
    const rooms = new Map([
      ['src/modules/bras/bras.module.ts', ['src/modules/bras/review/review.routes.ts', 'src/modules/bras/assessment/bras.routes.ts']],
      ['src/modules/bras/assessment/bras.service.ts', ['src/modules/bras/review/transitions.ts', 'src/modules/bras/bras.policy.ts']],
      ['src/modules/bras/review/review.routes.ts', ['src/modules/bras/assessment/bra-answer.ts']],
      ['src/platform/db/embedded/server.ts', ['src/platform/db/tables/auth.ts']],
      ['src/platform/db/tables/bras.ts', ['src/platform/db/embedded/binaries.ts']],
    ]);
    expect(folderCycles(rooms, 'src/modules/bras')).toEqual([{ folder: 'src/modules/bras', members: ['assessment/', 'review/'] }]);
    expect(folderCycles(rooms, 'src/platform')).toEqual([{ folder: 'src/platform/db', members: ['embedded/', 'tables/'] }]);
    // Floors stacked one way only: nothing to report.
    const layered = new Map([
      ['src/platform/module.ts', ['src/platform/auth/principal.ts', 'src/platform/db/schema.ts']],
      ['src/platform/auth/principal.ts', ['src/platform/errors/app-error.ts', 'src/platform/db/schema.ts']],
      ['src/platform/db/constraint-errors.ts', ['src/platform/errors/app-error.ts']],
    ]);
    expect(folderCycles(layered, 'src/platform')).toEqual([]);
  });

  it('a breach planted in the real tree fails the folder check: errors importing the database would close a loop', () => {
    const graph = new Map(sourceFiles().map((file) => [file.path, importsOf(file)]));
    expect(graph.get('src/platform/db/constraint-errors.ts')).toContain('src/platform/errors/app-error.ts');
    const planted = new Map(graph);
    planted.set('src/platform/errors/app-error.ts', [...graph.get('src/platform/errors/app-error.ts')!, 'src/platform/db/schema.ts']);
    expect(importCycles(planted)).toEqual([]);
    expect(folderCycles(planted, 'src/platform')).toEqual([{ folder: 'src/platform', members: ['db/', 'errors/'] }]);
  });
});
