import { describe, expect, it } from 'vitest';
import { importCycles } from './import-cycles.js';
import { importsOf, sourceFiles } from './source-files.js';

describe('the import graph of src/ has no cycle', () => {
  it('no file reaches itself through its imports, type-only imports included', () => {
    const graph = new Map(sourceFiles().map((file) => [file.path, importsOf(file)]));
    expect(importCycles(graph)).toEqual([]);
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
});
