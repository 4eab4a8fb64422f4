import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** The sign-in route's JavaScript, gzipped, must stay under this (what a first visit downloads). */
export const SIGN_IN_BUDGET_BYTES = 300 * 1024;

interface ChunkLike {
  type: 'chunk';
  fileName: string;
  code: string;
  isEntry: boolean;
  imports: string[];
}

/**
 * Measures what the browser loads for the sign-in route: the entry chunk and every chunk it imports
 * statically (the screens behind sign-in are lazy chunks, loaded only after it). Prints the figure,
 * writes it to dist/bundle-report.json, and fails the build over budget.
 */
export function bundleBudget(): Plugin {
  return {
    name: 'sign-in-bundle-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, ChunkLike>();
      for (const item of Object.values(bundle)) if (item.type === 'chunk') chunks.set(item.fileName, item as unknown as ChunkLike);
      const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
      if (entry === undefined) return;
      const seen = new Set<string>();
      const visit = (name: string): void => {
        if (seen.has(name)) return;
        seen.add(name);
        for (const imported of chunks.get(name)?.imports ?? []) visit(imported);
      };
      visit(entry.fileName);
      const files = [...seen].map((name) => ({ file: name, gzip_bytes: gzipSync(chunks.get(name)!.code, { level: 9 }).length }));
      const total = files.reduce((sum, file) => sum + file.gzip_bytes, 0);
      const kb = (bytes: number) => (bytes / 1024).toFixed(1);
      this.emitFile({
        type: 'asset',
        fileName: 'bundle-report.json',
        source: `${JSON.stringify({ route: 'sign-in', budget_bytes: SIGN_IN_BUDGET_BYTES, gzip_bytes: total, files }, null, 2)}\n`,
      });
      process.stdout.write(`Console: the sign-in route loads ${kb(total)} KB of JavaScript gzipped (budget ${kb(SIGN_IN_BUDGET_BYTES)} KB, ${files.length} files).\n`);
      if (total > SIGN_IN_BUDGET_BYTES) this.error(`the sign-in route's JavaScript is ${kb(total)} KB gzipped, over the ${kb(SIGN_IN_BUDGET_BYTES)} KB budget`);
    },
  };
}
