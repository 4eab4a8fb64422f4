import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles } from './source-files.js';

/** The strongly connected components of more than one file, or of a file that imports itself (Tarjan). */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

describe('the import graph of src/ has no cycle', () => {
  it('no file reaches itself through its imports, type-only imports included', () => {
    const graph = new Map(sourceFiles().map((file) => [file.path, importsOf(file)]));
    expect(importCycles(graph)).toEqual([]);
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
