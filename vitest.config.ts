import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // One embedded PostgreSQL server (or TEST_DATABASE_URL's) and one migrated template per run; each test
    // file clones the template into a database of its own (see test/support/global-setup.ts).
    // Processes started as a person would start them: vitest.newcomer.config.ts (npm run test:newcomer);
    // processes killed and databases lost: vitest.crash.config.ts (npm run test:crash); two instances on a
    // primary, a replica and PgBouncer: vitest.cluster.config.ts (npm run test:cluster).
    exclude: ['test/newcomer/**', 'test/crash/**', 'test/cluster/**', 'node_modules/**'],
    globalSetup: ['test/support/global-setup.ts'],
    // Processes the suites start through tsx keep no compile cache in the temp directory: a run leaves nothing.
    env: { TSX_DISABLE_CACHE: '1' },
    pool: 'forks',
    // The machine has 2 cores. Files share a worker's module graph (isolate: false): each file still gets
    // its own database and app, so only module-level state is shared, and no file relies on it.
    maxWorkers: 2,
    isolate: false,
    fileParallelism: true,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
