// S5: memory per connected, authenticated socket. N sockets connect (each a different student with
// its own session), the server is asked for a forced GC (the probe preload), and the growth of
// heapUsed and RSS over the same server with none connected is divided by N. Beside it, the same
// for a bare socket.io server. Cycles of connect / measure / disconnect, interleaved.
import { seedUsers } from '../lib/db.mjs';
import { cleanupStack, rssBytes, sleep } from '../lib/procs.mjs';
import { probe, startBaseline } from '../lib/servers.mjs';
import { appOnPostgres, target } from '../lib/scenario.mjs';
import { ratio, spread } from '../lib/stats.mjs';
import { warmupRounds } from '../lib/trial.mjs';

export async function runS5({ loadgen, quick, runs, log, dbName }) {
  const n = quick ? 500 : 5000;
  // Memory per socket hardly varies between cycles (±1 %): three cycles each keep the run short.
  const cycles = Math.min(runs, 3);
  const cleanups = cleanupStack();
  try {
    const { app, q } = await appOnPostgres(cleanups, dbName);
    const students = await seedUsers(q, 'student', n, 'S5 Student');
    const sio = await startBaseline('socketio');
    cleanups.add(() => sio.stop());
    cleanups.add(() => loadgen.call('disconnect', { prefix: 's5' }));

    const servers = {
      app: { server: app, prefix: 's5a', auth: (s) => ({ token: s.token }) },
      'bare socket.io': {
        server: sio,
        prefix: 's5b',
        auth: (s) => ({ token: s.token, rooms: [`user:${s.id}`, 'role:student'] }),
      },
    };
    // Before anything is measured: one full cycle each, so lazily built code and caches exist.
    const initial = {};
    const cycle = async (name, record) => {
      const { server, prefix, auth } = servers[name];
      const before = await probe(server, 'mem');
      const specs = students.map((s) => ({ id: `${prefix}:${s.id}`, auth: auth(s), label: 'idle' }));
      const c = await loadgen.call('connect', { url: server.url, specs, concurrency: 200 });
      if (c.failed) throw new Error(`S5: ${c.failed} sockets failed on ${name}: ${c.errors.join('; ')}`);
      await sleep(500);
      const after = await probe(server, 'mem');
      const rssAfter = rssBytes(server.pid);
      await loadgen.call('disconnect', { prefix });
      await sleep(500);
      if (!after.gcExposed) throw new Error('S5: the probe could not force a GC');
      initial[name] ??= before;
      if (!record) return null;
      return {
        heapPerSocket: (after.heapUsed - before.heapUsed) / n,
        rssPerSocket: (after.rss - before.rss) / n,
        // RSS rarely shrinks after a disconnect: growth over the server's first idle reading too.
        rssPerSocketFromStart: (rssAfter - initial[name].rss) / n,
        externalPerSocket: (after.external + after.arrayBuffers - before.external - before.arrayBuffers) / n,
        heapBefore: before.heapUsed,
        heapAfter: after.heapUsed,
        rssBefore: before.rss,
        rssAfter: after.rss,
      };
    };
    const results = { app: [], 'bare socket.io': [] };
    for (let w = 0; w < warmupRounds(); w++)
      for (const name of Object.keys(servers)) {
        log(`  warm-up ${name}`);
        await cycle(name, false);
      }
    for (let round = 0; round < cycles; round++)
      for (const name of round % 2 ? Object.keys(servers).reverse() : Object.keys(servers)) {
        results[name].push(await cycle(name, true));
        log(`  run ${round + 1} ${name}`);
      }

    const kb = (f) => (r) => f(r) / 1024;
    const lines = [];
    for (const [name, rs] of Object.entries(results)) {
      lines.push({
        metric: `${name}: heap per socket`,
        value: spread(
          rs,
          kb((r) => r.heapPerSocket),
        ),
        unit: 'KB',
      });
      lines.push({
        metric: `${name}: RSS per socket (this cycle)`,
        value: spread(
          rs,
          kb((r) => r.rssPerSocket),
        ),
        unit: 'KB',
      });
      lines.push({
        metric: `${name}: RSS per socket (over the idle server at start)`,
        value: spread(
          rs,
          kb((r) => r.rssPerSocketFromStart),
        ),
        unit: 'KB',
      });
      lines.push({
        metric: `${name}: external + array buffers per socket`,
        value: spread(
          rs,
          kb((r) => r.externalPerSocket),
        ),
        unit: 'KB',
      });
    }
    lines.push({
      metric: 'ratio app / bare socket.io: heap per socket',
      value: ratio(results.app, results['bare socket.io'], (r) => r.heapPerSocket),
      unit: '',
    });
    return {
      title: `${n} authenticated sockets, forced GC before each reading, ${cycles} connect/disconnect cycles`,
      lines,
      targets: [
        target(
          'S5 heap per socket ≤ 12 KB',
          spread(
            results.app,
            kb((r) => r.heapPerSocket),
          ),
          12,
          '≤',
        ),
        target(
          'S5 RSS per socket ≤ 25 KB',
          spread(
            results.app,
            kb((r) => Math.max(r.rssPerSocket, r.rssPerSocketFromStart)),
          ),
          25,
          '≤',
        ),
      ],
      broken: [],
      raw: results,
    };
  } finally {
    await cleanups.run();
  }
}
