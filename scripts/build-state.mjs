// What the last build was made from: a hash of everything the build reads, by content (not modification
// time), so that a checkout, a stash or a copied tree is judged by what it holds.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const STAMP = 'dist/.build-inputs';
const INPUTS = ['src', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs', 'scripts/build-state.mjs', 'scripts/copy-assets.mjs'];

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().flatMap((name) => files(join(path, name)));
}

export function inputsHash() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(files)) hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** The hash dist/ was built from; null when there is no build. */
export function builtHash() {
  return existsSync(STAMP) && existsSync('dist/main.js') ? readFileSync(STAMP, 'utf8').trim() : null;
}
