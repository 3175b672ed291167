#!/usr/bin/env node
// `node bench/heap-diff.mjs [sockets]`: where the app's memory per socket goes (S5). Connects that
// many authenticated student sockets (default 1,000) to the app on PostgreSQL and to bare socket.io,
// takes a heap snapshot of each with none and with all connected, and prints by object kind what
// the app adds per socket over bare socket.io.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { BENCH, cleanupStack, sleep } from './lib/procs.mjs';
import { seedUsers } from './lib/db.mjs';
import { probe, startBaseline, startLoadgen } from './lib/servers.mjs';
import { appOnPostgres } from './lib/scenario.mjs';

const n = Number(process.argv[2] ?? 1000);
const snapshot = (app, file) => probe(app, 'snapshot', { path: file }, 120_000);

/** Self size and count per "type: name" of a .heapsnapshot. */
function summarize(file) {
  const snap = JSON.parse(readFileSync(file, 'utf8'));
  const {
    node_fields: fields,
    node_types: [types],
  } = snap.snapshot.meta;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const byKind = new Map();
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const type = types[snap.nodes[i + typeAt]];
    const name = type === 'object' || type === 'closure' ? snap.strings[snap.nodes[i + nameAt]] : '';
    const key = `${type}${name ? `: ${name}` : ''}`;
    const entry = byKind.get(key) ?? { size: 0, count: 0 };
    entry.size += snap.nodes[i + sizeAt];
    entry.count += 1;
    byKind.set(key, entry);
  }
  return byKind;
}

/** Growth per socket by kind on one server: snapshots with none and with `specs` connected. */
async function growth(loadgen, server, specs, prefix) {
  // One cycle first, so lazily built code and caches exist before the first snapshot.
  await loadgen.call('connect', { url: server.url, specs, concurrency: 200 });
  await loadgen.call('disconnect', { prefix });
  await sleep(500);
  const dir = path.join(BENCH, 'results/profiles');
  const [before, after] = ['none', 'connected'].map((s) =>
    path.join(dir, `heap-${prefix}-${s}.heapsnapshot`),
  );
  await snapshot(server, before);
  await loadgen.call('connect', { url: server.url, specs, concurrency: 200 });
  await sleep(500);
  await snapshot(server, after);
  await loadgen.call('disconnect', { prefix });
  const [a, b] = [summarize(before), summarize(after)];
  for (const f of [before, after]) rmSync(f, { force: true });
  const perSocket = new Map();
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const [x, y] = [a.get(key) ?? { size: 0, count: 0 }, b.get(key) ?? { size: 0, count: 0 }];
    perSocket.set(key, { bytes: (y.size - x.size) / n, count: (y.count - x.count) / n });
  }
  return perSocket;
}

const cleanups = cleanupStack();
try {
  const loadgen = await startLoadgen();
  cleanups.add(() => loadgen.stop());
  const { app, q } = await appOnPostgres(cleanups, `bench_heap_${process.pid}`);
  const sio = await startBaseline('socketio');
  cleanups.add(() => sio.stop());
  const students = await seedUsers(q, 'student', n, 'H Student');
  const ofApp = await growth(
    loadgen,
    app,
    students.map((s) => ({ id: `ha:${s.id}`, auth: { token: s.token }, label: 'idle' })),
    'ha',
  );
  const ofBare = await growth(
    loadgen,
    sio,
    students.map((s) => ({
      id: `hb:${s.id}`,
      auth: { token: s.token, rooms: [`user:${s.id}`, 'role:student'] },
      label: 'idle',
    })),
    'hb',
  );
  const sum = (m) => [...m.values()].reduce((t, v) => t + v.bytes, 0) / 1024;
  console.log(`per socket: app ${sum(ofApp).toFixed(2)} KB, bare socket.io ${sum(ofBare).toFixed(2)} KB`);
  console.log('what the app adds, by kind (bytes and objects per socket):');
  const rows = [...ofApp]
    .map(([key, v]) => {
      const bare = ofBare.get(key) ?? { bytes: 0, count: 0 };
      return { key, bytes: v.bytes - bare.bytes, count: v.count - bare.count };
    })
    .filter((r) => Math.abs(r.bytes) >= 8)
    .sort((x, y) => y.bytes - x.bytes);
  for (const r of rows.slice(0, 30))
    console.log(
      `${r.bytes.toFixed(0).padStart(6)} B  ${r.count.toFixed(2).padStart(6)} ×  ${r.key.slice(0, 90)}`,
    );
  await app.stop(15_000);
} finally {
  await cleanups.run();
}
