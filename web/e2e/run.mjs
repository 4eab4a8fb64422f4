// `npm run test:console` (after the component tests): the end-to-end tests, from the repository root.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { CHROMIUM } from './browser.mjs';

if (!existsSync(CHROMIUM)) {
  console.error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium); .ci/run does.`);
  process.exit(1);
}
// Every `*.e2e.mjs` file of this folder, in name order: a new scenario file runs without being listed here.
function everyScenarioFile() {
  return readdirSync('web/e2e').filter((name) => name.endsWith('.e2e.mjs')).sort().map((name) => `web/e2e/${name}`);
}

const run = spawnSync(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=spec', ...(process.argv.length > 2 ? process.argv.slice(2) : everyScenarioFile())], { stdio: 'inherit' });
process.exit(run.status ?? 1);
