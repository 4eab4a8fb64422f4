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

/** A folder's cycle: the children of `folder` (sub-folders as `name/`, files directly in it by name) that reach one another. */
export interface FolderCycle {
  folder: string;
  members: string[];
}

/**
 * Cycles between folders, at every depth under `root` (root included). Inside each folder, its children
 * are the nodes: every sub-folder with all it holds, and every file directly in the folder on its own. A
 * file of one child importing a file of another is an arrow between them; a cycle of arrows means the
 * children cannot be stacked as floors, even when no file reaches itself (db/a.ts → http/b.ts and
 * http/c.ts → db/d.ts is such a loop).
 */
export function folderCycles(graph: ReadonlyMap<string, readonly string[]>, root: string): FolderCycle[] {
  const folders = new Set<string>();
  for (const file of graph.keys()) {
    if (!file.startsWith(`${root}/`)) continue;
    for (let folder = file.slice(0, file.lastIndexOf('/')); folder.length >= root.length; folder = folder.slice(0, folder.lastIndexOf('/'))) {
      folders.add(folder);
    }
  }
  return [...folders].sort().flatMap((folder) => {
    const childOf = (path: string): string | null => {
      if (!path.startsWith(`${folder}/`)) return null;
      const [first, ...rest] = path.slice(folder.length + 1).split('/');
      return rest.length === 0 ? first! : `${first}/`;
    };
    const arrows = new Map<string, Set<string>>();
    for (const [file, targets] of graph) {
      const from = childOf(file);
      if (from === null) continue;
      const out = arrows.get(from) ?? new Set<string>();
      arrows.set(from, out);
      for (const target of targets) {
        const to = childOf(target);
        if (to !== null && to !== from) out.add(to);
      }
    }
    return importCycles(new Map([...arrows].map(([child, out]) => [child, [...out]]))).map((members) => ({ folder, members }));
  });
}
