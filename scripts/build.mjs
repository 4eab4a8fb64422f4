// The build, skipped when nothing it reads has changed since the last one (so that `npm start` restarts in
// seconds): the service (tsc into dist/) and the console (Vite into web/dist/, served at /), each judged by
// its own inputs. `node scripts/build.mjs --force` always builds both; `--service-only` leaves the console
// alone (the client generator builds the service before the console's client exists). The inputs are hashed
// by content, not by modification time, so a checkout, a stash or a copied tree is judged by what it holds.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyAssets } from './copy-assets.mjs';

const SERVICE = {
  name: 'Build',
  stamp: 'dist/.build-inputs',
  output: 'dist/main.js',
  inputs: ['src', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs', 'scripts/copy-assets.mjs'],
  run() {
    const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (tsc.status !== 0) return tsc.status ?? 1;
    copyAssets();
    return 0;
  },
};

// What the console's bundle is made of: its sources and config, the generated client, the locked versions.
const CONSOLE_SKIP = new Set(['dist', 'node_modules', 'test-results', 'e2e']);
const CONSOLE = {
  name: 'Console build',
  stamp: 'web/dist/.build-inputs',
  output: 'web/dist/index.html',
  inputs: ['web', 'packages/client/src', 'packages/client/package.json', 'package-lock.json', 'scripts/build.mjs'],
  run() {
    // Vite prints the bundle and the sign-in route's gzipped size (web/vite.config.ts), and fails over budget.
    const vite = spawnSync(process.execPath, ['../node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { cwd: 'web', stdio: ['ignore', 'inherit', 'inherit'] });
    return vite.status ?? 1;
  },
};

function files(path, skip) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().filter((name) => !skip.has(name)).flatMap((name) => files(join(path, name), skip));
}

function inputsHash(target) {
  const hash = createHash('sha256');
  const skip = target === CONSOLE ? CONSOLE_SKIP : new Set();
  for (const file of target.inputs.flatMap((input) => files(input, skip))) hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

const force = process.argv.includes('--force');
// --quiet: nothing on stdout (for commands whose output is read, such as `npm run keys`).
const say = process.argv.includes('--quiet') ? (text) => process.stderr.write(text) : (text) => process.stdout.write(text);

function build(target) {
  const hash = inputsHash(target);
  const built = existsSync(target.stamp) && existsSync(target.output) ? readFileSync(target.stamp, 'utf8').trim() : null;
  if (!force && built === hash) {
    if (!process.argv.includes('--quiet')) say(`${target.name} is up to date (nothing changed since the last one).\n`);
    return;
  }
  const subject = target === CONSOLE ? 'console' : 'sources';
  say(force ? `${target.name === 'Build' ? 'Building' : 'Building the console'}...\n` : built === null ? `${target.name === 'Build' ? 'Building' : 'Building the console'} (first build)...\n` : `${subject === 'console' ? 'Console sources' : 'Sources'} changed: rebuilding...\n`);
  const status = target.run();
  if (status !== 0) process.exit(status);
  writeFileSync(target.stamp, `${hash}\n`);
}

build(SERVICE);
if (!process.argv.includes('--service-only')) build(CONSOLE);
