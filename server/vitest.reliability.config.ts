import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The reliability pass (`npm run test:reliability`): real server processes killed with SIGKILL, and
 * the PostgreSQL server restarted under load. One file at a time in one worker — restarting
 * PostgreSQL would break any other suite running against it — so it stays out of `npm test`.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { conditions: ['classwave-source'] },
  ssr: { resolve: { conditions: ['classwave-source'] } },
  test: {
    name: 'reliability',
    environment: 'node',
    include: ['test/reliability/**/*.test.ts'],
    // The PostgreSQL scenarios run when DATABASE_URL names a server (as in .ci/run).
    exclude: process.env.DATABASE_URL ? [] : ['**/*.postgres.test.ts'],
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 30 * 60_000,
    hookTimeout: 120_000,
  },
});
