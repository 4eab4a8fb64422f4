// The build, skipped when nothing it reads has changed since the last one (so that `npm start` restarts in
// seconds): the service (tsc into dist/; what counts as changed: scripts/build-state.mjs) and the console
// (Vite into web/dist/, served at /), each judged by its own inputs, hashed by content. `node
// scripts/build.mjs --force` always builds both; `--service-only` leaves the console alone (the client
// generator builds the service before the console's client exists).
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { STAMP, builtHash, inputsHash } from './build-state.mjs';
import { copyAssets } from './copy-assets.mjs';

const force = process.argv.includes('--force');
const quiet = process.argv.includes('--quiet');
// --quiet: nothing on stdout (for commands whose output is read, such as `npm run keys`).
const say = quiet ? (text) => process.stderr.write(text) : (text) => process.stdout.write(text);

function buildService() {
  const hash = inputsHash();
  const built = builtHash();
  if (!force && built === hash) {
    if (!quiet) say('Build is up to date (nothing changed since the last one).\n');
    return;
  }
  say(force ? 'Building...\n' : built === null ? 'Building (first build)...\n' : 'Sources changed: rebuilding...\n');
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  copyAssets();
  writeFileSync(STAMP, `${hash}\n`);
}

// What the console's bundle is made of: its sources and config, the generated client, the locked versions.
const CONSOLE_STAMP = 'web/dist/.build-inputs';
const CONSOLE_INPUTS = ['web', 'packages/client/src', 'packages/client/package.json', 'package-lock.json', 'scripts/build.mjs'];
const CONSOLE_SKIP = new Set(['dist', 'node_modules', 'test-results', 'e2e']);

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().filter((name) => !CONSOLE_SKIP.has(name)).flatMap((name) => files(join(path, name)));
}

function buildConsole() {
  const hash = createHash('sha256');
  for (const file of CONSOLE_INPUTS.flatMap(files)) hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  const wanted = hash.digest('hex');
  const built = existsSync(CONSOLE_STAMP) && existsSync('web/dist/index.html') ? readFileSync(CONSOLE_STAMP, 'utf8').trim() : null;
  if (!force && built === wanted) {
    if (!quiet) say('Console build is up to date (nothing changed since the last one).\n');
    return;
  }
  say(force ? 'Building the console...\n' : built === null ? 'Building the console (first build)...\n' : 'Console sources changed: rebuilding...\n');
  // Vite prints the bundle and the sign-in route's gzipped size (web/vite.config.ts), and fails over budget.
  const vite = spawnSync(process.execPath, ['../node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { cwd: 'web', stdio: ['ignore', 'inherit', 'inherit'] });
  if (vite.status !== 0) process.exit(vite.status ?? 1);
  writeFileSync(CONSOLE_STAMP, `${wanted}\n`);
}

buildService();
if (!process.argv.includes('--service-only')) buildConsole();
