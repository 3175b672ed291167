// Preloaded into every server the bench starts (node --expose-gc --import bench/lib/probe.mjs ...):
// answers the orchestrator over IPC, without touching the app's code.
//   { probe: 'mem' }        -> forced GC (twice), then process.memoryUsage()
//   { probe: 'eld:start' }  -> starts an event-loop delay histogram (1 ms resolution)
//   { probe: 'eld:stop' }   -> its p50/p99/max in ms
//   { probe: 'snapshot', path } -> forced GC, then a heap snapshot written to path (diagnostics)
//   { probe: 'cpu:start' }  -> starts the V8 CPU profiler (only the phase that matters is profiled)
//   { probe: 'cpu:stop', path } -> the profile written to path (.cpuprofile)
//   { probe: 'queries:start' } -> counts the statements the app sends to PostgreSQL (node-postgres's
//                                 Client#query, one round trip each, BEGIN and COMMIT included);
//                                 pg is wrapped only when first asked, so no other run pays for it
//   { probe: 'queries:stop' }  -> the count since queries:start
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Session } from 'node:inspector';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';

if (process.send) {
  let eld = null;
  let inspector = null;
  let queries = null;
  let wrapped = false;
  const post = (method, params) =>
    new Promise((resolve, reject) =>
      inspector.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  process.on('message', (message) => {
    if (!message || typeof message !== 'object' || !('probe' in message)) return;
    const reply = (value) => process.send({ probeReply: message.id, value });
    switch (message.probe) {
      case 'mem': {
        for (let i = 0; i < 3; i++) globalThis.gc?.();
        // Let finalizers and weak callbacks run, then collect again.
        setTimeout(() => {
          globalThis.gc?.();
          reply({ ...process.memoryUsage(), gcExposed: typeof globalThis.gc === 'function' });
        }, 200);
        break;
      }
      case 'snapshot':
        for (let i = 0; i < 3; i++) globalThis.gc?.();
        reply(writeHeapSnapshot(message.path));
        break;
      case 'cpu:start':
        inspector = new Session();
        inspector.connect();
        void post('Profiler.enable')
          .then(() => post('Profiler.setSamplingInterval', { interval: 500 }))
          .then(() => post('Profiler.start'))
          .then(() => reply(true));
        break;
      case 'cpu:stop':
        void post('Profiler.stop').then(({ profile }) => {
          writeFileSync(message.path, JSON.stringify(profile));
          inspector.disconnect();
          inspector = null;
          reply(message.path);
        });
        break;
      case 'queries:start':
        if (!wrapped) {
          // The app's own pg (the one module the app resolves from the repository's node_modules).
          const { Client } = createRequire(import.meta.url)('pg');
          const query = Client.prototype.query;
          Client.prototype.query = function countedQuery(...args) {
            if (queries !== null) queries++;
            return query.apply(this, args);
          };
          wrapped = true;
        }
        queries = 0;
        reply(true);
        break;
      case 'queries:stop':
        reply(queries);
        queries = null;
        break;
      case 'eld:start':
        eld?.disable();
        eld = monitorEventLoopDelay({ resolution: 1 });
        eld.enable();
        reply(true);
        break;
      case 'eld:stop': {
        if (!eld) return reply(null);
        eld.disable();
        const ms = (ns) => ns / 1e6;
        reply({
          p50: ms(eld.percentile(50)),
          p99: ms(eld.percentile(99)),
          max: ms(eld.max),
          count: eld.count,
        });
        eld = null;
        break;
      }
    }
  });
  // The IPC channel must not keep a server alive that is shutting down.
  process.channel?.unref();
}
