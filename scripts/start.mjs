#!/usr/bin/env node
// `npm start`: builds whatever is missing or out of date, then runs the server (which applies
// migrations and serves the API, the sockets and the built client from one port).
import { spawn } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

buildIfStale();

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
