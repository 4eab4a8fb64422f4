// `npm run test:console` (after the component tests): the end-to-end tests, from the repository root.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CHROMIUM } from './browser.mjs';

if (!existsSync(CHROMIUM)) {
  console.error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium); .ci/run does.`);
  process.exit(1);
}
const run = spawnSync(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=spec', ...(process.argv.length > 2 ? process.argv.slice(2) : ['web/e2e/console.e2e.mjs', 'web/e2e/administration.e2e.mjs', 'web/e2e/review-loop.e2e.mjs'])], { stdio: 'inherit' });
process.exit(run.status ?? 1);
