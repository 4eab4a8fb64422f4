// The build, skipped when nothing it reads has changed since the last one (so that `npm start` restarts in
// seconds). `node scripts/build.mjs --force` always builds. The inputs are hashed by content, not by
// modification time, so a checkout, a stash or a copied tree is judged by what it holds.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyAssets } from './copy-assets.mjs';

const STAMP = 'dist/.build-inputs';
const INPUTS = ['src', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs', 'scripts/copy-assets.mjs'];

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().flatMap((name) => files(join(path, name)));
}

function inputsHash() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(files)) hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

const force = process.argv.includes('--force');
// --quiet: nothing on stdout (for commands whose output is read, such as `npm run keys`).
const say = process.argv.includes('--quiet') ? (text) => process.stderr.write(text) : (text) => process.stdout.write(text);
const hash = inputsHash();
const built = existsSync(STAMP) && existsSync('dist/main.js') ? readFileSync(STAMP, 'utf8').trim() : null;
if (!force && built === hash) {
  if (!process.argv.includes('--quiet')) say('Build is up to date (nothing changed since the last one).\n');
  process.exit(0);
}
say(force ? 'Building...\n' : built === null ? 'Building (first build)...\n' : 'Sources changed: rebuilding...\n');
const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: ['ignore', 'inherit', 'inherit'] });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
copyAssets();
writeFileSync(STAMP, `${hash}\n`);
