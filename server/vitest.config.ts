import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['classwave-source'] },
  ssr: { resolve: { conditions: ['classwave-source'] } },
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The multi-process tests need a Redis server: they run in the pass that sets REDIS_URL; the
    // concurrent-transaction tests need the PostgreSQL server: they run in the pass that sets DATABASE_URL.
    // The reliability pass kills servers and restarts PostgreSQL: it runs alone (vitest.reliability.config.ts).
    exclude: [
      'test/reliability/**',
      ...(process.env.REDIS_URL ? [] : ['**/*.redis.test.ts']),
      ...(process.env.DATABASE_URL ? [] : ['**/*.postgres.test.ts']),
    ],
    globalSetup: ['test/support/global-setup.ts'],
    // Each file builds its own app on its own database copy, so the files can share a worker's
    // module cache: isolated, every file loaded the whole server again (npm test took 17 minutes
    // on Node 26 here, 9 without).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
