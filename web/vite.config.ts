import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { bundleBudget } from './bundle-budget.ts';

// Built by scripts/build.mjs into web/dist, which the service serves at / (src/platform/http/console.ts).
export default defineConfig({
  plugins: [react(), bundleBudget()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1024 },
  // `npm run dev -w web` against a service on 127.0.0.1:3000.
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000', '/auth': 'http://127.0.0.1:3000' },
  },
});
