import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['classwave-source'] },
  ssr: { resolve: { conditions: ['classwave-source'] } },
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
