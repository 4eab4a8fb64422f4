import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The console's component tests (jsdom). The service's suite (../vitest.config.ts) never includes web/.
export default defineConfig({
  plugins: [react()],
  test: {
    include: ['test/**/*.test.tsx'],
    environment: 'jsdom',
    setupFiles: ['test/setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
  },
});
