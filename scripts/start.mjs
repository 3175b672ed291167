#!/usr/bin/env node
// `npm start`: builds whatever is missing or out of date, then runs the server (which applies
// migrations and serves the API, the sockets and the built client from one port).
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (command) => execSync(command, { cwd: root, stdio: 'inherit' });

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

// tsc -b is incremental: it only rebuilds the server and shared code when their sources changed.
run('npx tsc -b');

const clientIndex = path.join(root, 'client/dist/index.html');
const clientSources = newest(
  'client/src',
  'client/public',
  'client/index.html',
  'client/vite.config.ts',
  'shared/src',
);
if (!existsSync(clientIndex) || statSync(clientIndex).mtimeMs < clientSources) {
  console.log('Building the client…');
  run('npm run build -w client');
}

await import(path.join(root, 'server/dist/main.js'));
