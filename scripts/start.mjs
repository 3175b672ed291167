#!/usr/bin/env node
// `npm start`: builds whatever is missing or out of date, then runs the server (which applies
// migrations and serves the API, the sockets and the built client from one port).
import { execSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
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
  'client/precompress.ts',
  'shared/src',
);
if (!existsSync(clientIndex) || statSync(clientIndex).mtimeMs < clientSources) {
  console.log('Building the client…');
  run('npm run build -w client');
}

// The server runs as a child so this process only relays: the signals that stop `npm start` are
// forwarded to it, and it exits with the server's code once the server has shut down gracefully.
// The IPC channel lets the server notice if this process dies without forwarding (e.g. SIGKILL),
// so no server is ever left holding the port.
const server = spawn(process.execPath, [...process.execArgv, path.join(root, 'server/dist/main.js')], {
  cwd: root,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.on(signal, () => {
    if (server.exitCode === null && server.signalCode === null) server.kill(signal);
  });
server.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 128 + (osConstants.signals[signal] ?? 0) : 1);
  if (server.connected) server.disconnect();
});
