// `npm start`'s first step: when a build is due, the start-up checks run from the sources first
// (src/preflight.ts, through tsx), so that a refusal (exit code 78) comes in a moment instead of after the
// build. With a current build there is nothing to wait for: the service itself checks before any work.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { builtHash, inputsHash } from './build-state.mjs';

if (builtHash() !== inputsHash() && existsSync('node_modules/tsx')) {
  const checks = spawnSync(process.execPath, ['--import', 'tsx', 'src/preflight.ts'], { stdio: 'inherit' });
  process.exit(checks.status ?? 1);
}
