import { defineConfig } from 'vitest/config';

// One `npm test` runs every workspace's suite; each workspace keeps its own environment.
export default defineConfig({
  test: {
    projects: ['shared', 'server', 'client'],
    // Two cores: more workers than that only adds contention.
    maxWorkers: 2,
  },
});
