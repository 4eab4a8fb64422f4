// The build, skipped when nothing it reads has changed since the last one (so that `npm start` restarts in
// seconds). `node scripts/build.mjs --force` always builds. What counts as changed: scripts/build-state.mjs.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { STAMP, builtHash, inputsHash } from './build-state.mjs';
import { copyAssets } from './copy-assets.mjs';

const force = process.argv.includes('--force');
// --quiet: nothing on stdout (for commands whose output is read, such as `npm run keys`).
const say = process.argv.includes('--quiet') ? (text) => process.stderr.write(text) : (text) => process.stdout.write(text);
const hash = inputsHash();
const built = builtHash();
if (!force && built === hash) {
  if (!process.argv.includes('--quiet')) say('Build is up to date (nothing changed since the last one).\n');
  process.exit(0);
}
say(force ? 'Building...\n' : built === null ? 'Building (first build)...\n' : 'Sources changed: rebuilding...\n');
const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: ['ignore', 'inherit', 'inherit'] });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
copyAssets();
writeFileSync(STAMP, `${hash}\n`);
