/**
 * WORKERS=2 against the PostgreSQL server (runs only in the DATABASE_URL pass): the built server
 * (`node server/dist/main.js`) as a node:cluster primary with two workers on one port. A live
 * event made through one worker must reach sockets held by the other, over websocket and over the
 * polling fallback (whose requests only work if each one reaches the process holding its session).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { io as connectClient } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.js';
import { assertBuildIsCurrent, freePort } from '../reliability/child-server.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../support/app.js';
import { createTeacher } from '../support/factories.js';
import { databaseUrlWithName } from '../support/global-setup.js';
import { connect, record, type Recorder } from '../support/sockets.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let admin: pg.Client;
let databaseName: string;
let database: Database;
let t: TestApp;
let primary: ChildProcess;
let baseUrl: string;
let dataDir: string;
const open: Recorder[] = [];

/** The pids of a process's direct children (Linux /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
}

/** Which of `pids` holds the server end of the TCP connection whose client end is `clientPort`. */
function holderOf(clientPort: number, pids: number[]): number | undefined {
  const owner = new Map<string, number>();
  for (const pid of pids)
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkOrEmpty(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode) owner.set(inode, pid);
    }
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6'])
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      const remotePort = parseInt(cols[2]?.split(':')[1] ?? '', 16);
      if (remotePort === clientPort && cols[9] && owner.has(cols[9])) return owner.get(cols[9]);
    }
  return undefined;
}

function readlinkOrEmpty(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return ''; // the descriptor closed while we looked
  }
}

/** The local port of a websocket socket.io client's TCP connection. */
const localPortOf = (recorder: Recorder) =>
  (recorder.socket.io.engine.transport as unknown as { ws: { _socket: { localPort: number } } }).ws._socket
    .localPort;

beforeAll(async () => {
  assertBuildIsCurrent();
  const url = process.env.DATABASE_URL!;
  const template = inject('postgresTemplate')!;
  databaseName = `${template}_cluster_${randomUUID().slice(0, 8)}`;
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database "${databaseName}" template "${template}"`);
  const databaseUrl = databaseUrlWithName(url, databaseName);
  // An in-process app on the same database and secret signs people up (it reads the mails).
  database = await openDatabase({ url: databaseUrl, poolSize: 2 });
  t = await createTestApp({ database });

  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  dataDir = mkdtempSync(path.join(tmpdir(), 'classwave-cluster-'));
  primary = spawn(process.execPath, [path.join(repoRoot, 'server/dist/main.js')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_ORIGIN: baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      REDIS_URL: '',
      JWT_SECRET: TEST_SECRET,
      WORKERS: '2',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  while (
    !(await fetch(`${baseUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (primary.exitCode !== null) throw new Error(`the cluster exited with code ${primary.exitCode}`);
    if (Date.now() > deadline) throw new Error('the cluster did not answer within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 90_000);

afterAll(async () => {
  open.forEach((r) => r.close());
  if (primary && primary.exitCode === null) {
    primary.kill('SIGTERM');
    await new Promise((resolve) => primary.once('exit', resolve));
  }
  await t?.close();
  await admin?.query(`drop database if exists "${databaseName}" with (force)`);
  await admin?.end();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('WORKERS=2 on the PostgreSQL server', () => {
  it('runs two worker processes on one port', () => {
    expect(childrenOf(primary.pid!)).toHaveLength(2);
  });

  it('delivers an event made through one worker to sockets held by the other, websocket and polling', async () => {
    const teacher = await createTeacher(t);
    const workers = childrenOf(primary.pid!);
    const first = await connect(baseUrl, teacher.token);
    const second = await connect(baseUrl, teacher.token);
    open.push(first, second);
    const holders = new Set([holderOf(localPortOf(first), workers), holderOf(localPortOf(second), workers)]);
    // One socket on each worker: whichever worker takes the write below, the other must pass it on.
    expect(holders).toEqual(new Set(workers));

    const polling = record(
      connectClient(baseUrl, {
        path: '/socket.io',
        transports: ['polling'],
        reconnection: false,
        forceNew: true,
        auth: { token: teacher.token },
      }),
    );
    open.push(polling);
    await new Promise<void>((resolve, reject) => {
      polling.socket.once('connect', resolve);
      polling.socket.once('connect_error', reject);
    });

    const created = await fetch(`${baseUrl}/api/courses`, {
      method: 'POST',
      headers: { ...teacher.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Across workers', code: 'CW2', description: 'Two processes' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const isIt = (e: { type: string; data: unknown }) =>
      e.type === 'course:created' && (e.data as { id: string }).id === id;
    await Promise.all([first.waitFor(isIt), second.waitFor(isIt), polling.waitFor(isIt)]);
    for (const socket of [first, second, polling]) expect(socket.events.filter(isIt)).toHaveLength(1);
  });
});
