import react from '@vitejs/plugin-react';
import { defaultClientConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { precompress } from './precompress.ts';
import { shellPreload } from './shellPreload.ts';

/**
 * Reached from the sign-in page's modules only through the shared package's index, and used only
 * after sign-in: left out of the first chunk (date-fns alone is 7 KB of the sign-in page's 150).
 */
const SIGNED_IN_ONLY =
  /[\\/]node_modules[\\/]date-fns[\\/]|[\\/]shared[\\/]src[\\/](dates|zones|greeting|status|chatbot|lessonRules)\.ts$/;

// Where `npm run dev -w server` listens; the dev server forwards API and socket traffic there.
const apiTarget = 'http://localhost:3000';

export default defineConfig({
  plugins: [
    react(),
    // What `preloadSignedInShell` (src/app/router.tsx) loads, asked for by the page itself.
    shellPreload(['src/features/layout/AppLayout.tsx', 'src/features/dashboard/DashboardPage.tsx']),
    precompress(),
  ],
  resolve: {
    // `classwave-source` makes @classwave/shared resolve to its TypeScript source, so the client
    // never waits for (or drifts from) a build of shared. Vite's own defaults follow it.
    conditions: ['classwave-source', ...defaultClientConditions],
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/socket.io': { target: apiTarget, ws: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/socket.io': { target: apiTarget, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      // The shared package's API schemas are TypeBox calls (`Type.Object(…)`), which a bundler must
      // keep unless told they have no side effects; the client uses their types only. Building them
      // all was about 60 ms of the first chunk's start at Lighthouse's 4x CPU slowdown, and 11 KB.
      treeshake: { manualPureFunctions: ['Type'] },
      output: {
        // Few files, not eighty: Lighthouse's mobile run (slow 4G, HTTP/1.1 here) pays a round trip
        // per handful of requests, and the signed-in dashboard took 45 scripts and 12 stylesheets
        // (LCP 4.0 s). Now: what the sign-in page needs in one chunk, what several pages share in
        // another, and one chunk per page.
        codeSplitting: {
          groups: [
            {
              name: 'initial',
              tags: ['$initial'],
              test: (id) => !SIGNED_IN_ONLY.test(id),
              includeDependenciesRecursively: false,
              priority: 3,
            },
            { name: 'common', minShareCount: 2, priority: 2 },
          ],
        },
      },
    },
  },
  test: {
    name: 'client',
    environment: 'jsdom',
    // Node 25 and later have a localStorage of their own, which hides jsdom's from the tests.
    execArgv: Number(process.versions.node.split('.')[0]) >= 22 ? ['--no-experimental-webstorage'] : [],
    setupFiles: ['./src/test/setup.ts'],
    // Files share a worker's module cache (each still gets its own jsdom and a fresh store per
    // test): isolated, every file loaded React, RTK and the features again — 198 s of the client's
    // run against 57 here. The setup file undoes what a test changes globally.
    isolate: false,
    // A page's first render loads its route's modules: on a loaded two-core machine (the whole suite
    // beside it) that alone passed vitest's default 5 s once.
    testTimeout: 15_000,
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
