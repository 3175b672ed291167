#!/usr/bin/env node
// `npm run test:e2e`: builds what is stale, then runs the Playwright suite in Debian's Chromium.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { buildIfStale } from './build-if-stale.mjs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(
    `Chromium was not found at ${chromium}.\n` +
      "Install Debian's package (as root): apt-get update && apt-get install -y chromium\n" +
      'or point CHROMIUM_PATH at a Chromium binary. (Downloading a browser with "npx playwright install" does not work here.)',
  );
  process.exit(1);
}
const run = (command) => execSync(command, { stdio: 'inherit' });
try {
  buildIfStale();
  run(`npx playwright test -c e2e/playwright.config.ts ${process.argv.slice(2).join(' ')}`);
} catch {
  process.exit(1);
}
