import { defineConfig, devices } from '@playwright/test';

/** End-to-end: the built app on a fresh data directory, driven in Debian's Chromium (never a downloaded browser). */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  globalSetup: './global-setup.ts',
  // Journey by journey, not file by file: every journey makes its own people and class, so any two
  // can run side by side, and the two workers stay busy to the end (file by file, grading's 13
  // journeys ran one after another on one worker while the other ran out of files). A file whose
  // journeys share what a beforeAll started (oidc: a provider and a server) keeps them together.
  fullyParallel: true,
  // Two workers sharing the one server: a journey mostly waits (for the server, a live event, an
  // undo window), so the suite used about a quarter of a core with one worker (50 journeys, 10
  // minutes). The longer test timeout in CI leaves room for a runner whose two cores are shared by
  // two browsers, the server and the tests.
  workers: 2,
  // One retry in CI, where a red run does not land: a journey that passes only on its retry is
  // listed as flaky in the log, to be made steady, not hidden.
  retries: process.env.CI ? 1 : 0,
  timeout: process.env.CI ? 90_000 : 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI
    ? [['list']]
    : [['list'], ['html', { open: 'never', outputFolder: '../playwright-report' }]],
  outputDir: '../test-results',
  use: {
    baseURL: process.env.E2E_BASE_URL,
    trace: process.env.E2E_TRACE === 'off' ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'chromium', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } } },
  ],
});
