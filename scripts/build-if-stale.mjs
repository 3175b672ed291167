// Builds what is missing or out of date: the server and shared code (tsc -b is incremental) and
// the client bundle when any of its sources is newer than client/dist. `npm start` and the e2e
// run both start with it, so neither rebuilds what the other (or the test suite) just built.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (command, env = process.env) => execSync(command, { cwd: root, stdio: 'inherit', env });

/** The newest modification time of any file under the given paths. */
function newest(...paths) {
  let latest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const stat = statSync(p);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(p))
        if (entry !== 'node_modules' && entry !== 'dist') visit(path.join(p, entry));
    } else latest = Math.max(latest, stat.mtimeMs);
  };
  paths.forEach((p) => visit(path.join(root, p)));
  return latest;
}

export function buildIfStale() {
  run('npx tsc -b');
  const clientIndex = path.join(root, 'client/dist/index.html');
  const clientSources = newest(
    'client/src',
    'client/public',
    'client/index.html',
    'client/vite.config.ts',
    'client/precompress.ts',
    'client/package.json',
    'shared/src',
  );
  if (!existsSync(clientIndex) || statSync(clientIndex).mtimeMs < clientSources) {
    console.log('Building the client…');
    // Always the production bundle: Vite builds React's and Redux Toolkit's development code when
    // NODE_ENV says otherwise, and the test suite starts `npm start` with NODE_ENV=test (the e2e
    // suite then ran on that 720 KB bundle, with RTK's state checks walking the store on every action).
    run('npm run build -w client', { ...process.env, NODE_ENV: 'production' });
  }
}
