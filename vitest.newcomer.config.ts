import { defineConfig } from 'vitest/config';

/**
 * The newcomer checks: the service run as a process, as a person would run it (the README's first
 * session, the demo's printed commands, the start-up messages and exit codes, the OpenAPI lint of the
 * served document). They need a build (`npm run build`); .ci/run runs them after the suite.
 */
export default defineConfig({
  test: {
    include: ['test/newcomer/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 120_000,
  },
});
