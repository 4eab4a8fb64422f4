import { defineConfig } from 'vitest/config';

/**
 * The scale-out suite (`npm run test:cluster`, run by .ci/run where PostgreSQL's programs, PgBouncer and
 * Redis are there): a primary and a streaming replica it starts itself, PgBouncer in transaction mode, and
 * two instances of the built service (docs/scaling.md). One file at a time: each runs real servers.
 */
export default defineConfig({
  test: {
    include: ['test/cluster/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
