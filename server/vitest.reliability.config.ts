import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));
const shared = {
  root,
  resolve: { conditions: ['classwave-source'] },
  ssr: { resolve: { conditions: ['classwave-source'] } },
};
const test = { environment: 'node', testTimeout: 30 * 60_000, hookTimeout: 120_000 } as const;
// The PostgreSQL scenarios run when DATABASE_URL names a server (as in .ci/run).
const withoutPostgres = process.env.DATABASE_URL ? [] : ['**/*.postgres.test.ts'];

/**
 * The reliability pass (`npm run test:reliability`): real server processes killed with SIGKILL, and
 * the PostgreSQL server restarted under load. It stays out of `npm test`: restarting PostgreSQL
 * would break any other suite running against it.
 *
 * Two groups, one after the other. First the kills: each file has a server and a database of its
 * own (PGlite directories, its own PostgreSQL database, free ports), so two run side by side: one
 * alone left a third of the two cores idle while it waited for a restarted server. Then the
 * PostgreSQL restart, alone.
 */
export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      {
        ...shared,
        test: {
          ...test,
          name: 'reliability',
          include: ['test/reliability/**/*.test.ts'],
          exclude: ['test/reliability/pg-restart.postgres.test.ts', ...withoutPostgres],
          sequence: { groupOrder: 0 },
        },
      },
      ...(process.env.DATABASE_URL
        ? [
            {
              ...shared,
              test: {
                ...test,
                name: 'postgres-restart',
                include: ['test/reliability/pg-restart.postgres.test.ts'],
                sequence: { groupOrder: 1 },
              },
            },
          ]
        : []),
    ],
  },
});
