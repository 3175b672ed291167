// S8: the product load. 5,000 users connected (200 teachers, 4,800 students), 1,000 of them active
// (50 teachers, 950 students) sending about 330 requests/s, open loop, mixed:
//   students: GET /api/assignments 30 %, GET /api/dashboard 15 %, GET /api/courses 10 %,
//             GET /api/events 6 %, POST a submission 15 % (event to the student and the teacher)
//   teachers: GET an assignment's submissions 12 %, PATCH a grade 12 % (event to both),
//             and one new assignment every 5 s (event to every student and the teacher).
// 50 courses hold one assignment each (so the students' assignment list has 50 items, as in S1),
// with 40 submissions each to grade. Reports API and event latency and the app core's headroom.
// The data, sockets and request mix are lib/product-mix.mjs (the soak, bench/soak.mjs, uses them too).
import { cleanupStack } from '../lib/procs.mjs';
import { productMix, productSockets, seedProduct } from '../lib/product-mix.mjs';
import { appOnPostgres, integrity, latencyLines, lockLines, target } from '../lib/scenario.mjs';
import { spread } from '../lib/stats.mjs';
import { interleave, trial } from '../lib/trial.mjs';

const RATE = 330;

export async function runS8({ loadgen, quick, runs, log, dbName }) {
  const seconds = quick ? 3 : 8;
  // quick: 1,000 connected, 200 active, the same request rate.
  const scale = quick ? 5 : 1;
  const TEACHERS = 200 / scale;
  const STUDENTS = 4800 / scale;
  const ACTIVE_TEACHERS = quick ? 20 : 50;
  const ACTIVE_STUDENTS = 950 / scale;
  const cleanups = cleanupStack();
  try {
    const { app, q, db } = await appOnPostgres(cleanups, dbName);
    const data = await seedProduct(q, {
      teachers: TEACHERS,
      students: STUDENTS,
      activeTeachers: ACTIVE_TEACHERS,
      activeStudents: ACTIVE_STUDENTS,
      name: 'S8',
    });
    cleanups.add(() => loadgen.call('disconnect', { prefix: 's8' }));
    const c = await loadgen.call('connect', { url: app.url, specs: productSockets(data, 's8') });
    if (c.failed) throw new Error(`S8: ${c.failed} sockets failed: ${c.errors.join('; ')}`);
    log(`  ${c.connected} users connected in ${(c.ms / 1000).toFixed(1)} s`);

    const mix = productMix(data, { url: app.url, rate: RATE, prefix: 's8' });
    const variant = () => {
      const requests = mix.take(RATE * seconds);
      return trial({ serverPids: [app.pid], db, loadgen }, () =>
        loadgen.call('run', { requests, rate: RATE, drainMs: 3000 }),
      );
    };
    const { results, discarded } = await interleave({ app: variant }, { runs, log });
    const rs = results.app;
    const labels = mix.labels;
    const lines = [
      { metric: 'achieved request rate', value: spread(rs, (r) => r.achievedRate), unit: 'req/s' },
      ...latencyLines(rs, 'API, all requests', (r) => httpAll(r), ['p50', 'p95', 'p99', 'max']),
      ...labels.map((l) => ({
        metric: `API ${l} p95`,
        value: spread(rs, (r) => r.http[l]?.p95),
        unit: 'ms',
      })),
      ...latencyLines(rs, 'events, all recipients', (r) => r.eventsAll, ['p50', 'p99', 'max']),
      { metric: 'events delivered per run', value: spread(rs, (r) => r.eventsAll.count), unit: '' },
      ...lockLines(rs),
      {
        metric: 'app CPU (process) per second',
        value: spread(rs, (r) => r.cpu.server / r.cpu.wall),
        unit: 'cores',
      },
      {
        metric: 'PostgreSQL backends CPU per second',
        value: spread(rs, (r) => r.cpu.db / r.cpu.wall),
        unit: 'cores',
      },
      {
        metric: 'app core headroom (1 − app CPU per second)',
        value: spread(rs, (r) => 1 - r.cpu.server / r.cpu.wall),
        unit: `of one core (${discarded.app} runs discarded)`,
      },
      {
        metric: 'scheduler lag p99 (load generator)',
        value: spread(rs, (r) => r.schedulerLag.p99),
        unit: 'ms',
      },
    ];
    return {
      title: `${TEACHERS + STUDENTS} connected, ${ACTIVE_TEACHERS + ACTIVE_STUDENTS} active, ${RATE} req/s mixed for ${seconds} s`,
      lines,
      notes: [
        'Headroom: the app process is single-threaded on core 0; its CPU per second of wall time is how much of that core the product load uses (wall includes up to 3 s of drain after sending stops, so it is read over the sending time).',
      ],
      targets: [
        target(
          'S8 API p95 < 100 ms',
          spread(rs, (r) => httpAll(r).p95),
          100,
          '≤',
        ),
        target(
          'S8 event p99 < 100 ms',
          spread(rs, (r) => r.eventsAll.p99),
          100,
          '≤',
        ),
        target(
          'S8 CPU headroom reported (app core, fraction free while sending)',
          spread(rs, (r) => 1 - r.cpu.server / (r.sendingMs / 1000)),
          0,
          '≥',
        ),
      ],
      broken: integrity('S8', rs).problems,
      raw: rs,
    };
  } finally {
    await cleanups.run();
  }
}

/** The request latencies of all labels together (weighted p-values are not additive: take the worst label's). */
function httpAll(r) {
  return r.httpAll ?? Object.values(r.http).reduce((w, s) => (s.p95 > (w.p95 ?? -1) ? s : w), {});
}
