import { defineConfig } from 'vitest/config';

/**
 * The crash suite (`npm run test:crash`, run by .ci/run after a build): the built service as its own
 * process on a persisted DATA_DIR, killed with SIGKILL mid-burst, its database connections terminated, its
 * embedded postmaster killed. One file at a time: each runs real servers.
 */
export default defineConfig({
  test: {
    include: ['test/crash/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 180_000,
  },
});
