// S7: two app processes with the Redis adapter (sharing one database), clients split across them,
// every write sent to process A: recipients on B hear of it only through Redis. Compared in the
// same runs with one app process without Redis serving the same clients and the same writes.
// All app processes share the app core (the machine has two cores); Redis is not pinned.
import { everyoneIn, seedAssignments, seedCourses, seedMembers, seedUsers } from '../lib/db.mjs';
import { cleanupStack } from '../lib/procs.mjs';
import { startApp } from '../lib/servers.mjs';
import {
  appOnPostgres,
  integrity,
  keyMark,
  latencyLines,
  lockLines,
  nextKey,
  target,
} from '../lib/scenario.mjs';
import { spread } from '../lib/stats.mjs';
import { interleave, trial } from '../lib/trial.mjs';

const COURSES = 40;
const STUDENTS = 1000;
const RATE = 100;

export async function runS7({
  loadgen,
  quick,
  runs,
  log,
  dbName,
  redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
}) {
  const seconds = quick ? 2 : 5;
  const perRun = RATE * seconds;
  const cleanups = cleanupStack();
  try {
    // A: the app with Redis (takes the writes); B: a second one, same database and Redis; C: alone.
    const { app: a, q, db } = await appOnPostgres(cleanups, dbName, { name: 'app-A', redisUrl });
    const b = await startApp({ name: 'app-B', db: { kind: 'postgres', name: dbName }, redisUrl });
    cleanups.add(() => b.stop());
    const c = await startApp({ name: 'app-single', db: { kind: 'postgres', name: dbName } });
    cleanups.add(() => c.stop());
    const teachers = await seedUsers(q, 'teacher', COURSES, 'S7 Teacher');
    const courses = await seedCourses(q, teachers);
    const students = await seedUsers(q, 'student', STUDENTS, 'S7 Student');
    await seedMembers(q, everyoneIn(students, courses));
    const rounds = 2 * (1 + runs + 2);
    const assignments = await seedAssignments(q, courses, rounds);
    cleanups.add(() => loadgen.call('disconnect', { prefix: 's7' }));

    // Every other user on B (remote), the rest on A (local); and each user once more on C.
    const users = [...teachers, ...students];
    const onB = (i) => i % 2 === 1;
    const pairSpecs = (want) =>
      users.flatMap((u, i) =>
        onB(i) === want
          ? [
              {
                id: `s7x:${u.id}`,
                auth: { token: u.token },
                label: want ? 'remote (on B)' : 'local (on A)',
                real: i < 4,
              },
            ]
          : [],
      );
    for (const [server, specs] of [
      [a, pairSpecs(false)],
      [b, pairSpecs(true)],
      [
        c,
        users.map((u, i) => ({
          id: `s7c:${u.id}`,
          auth: { token: u.token },
          label: 'single process',
          real: i < 2,
        })),
      ],
    ]) {
      const r = await loadgen.call('connect', { url: server.url, specs });
      if (r.failed)
        throw new Error(`S7: ${r.failed} sockets failed on ${server.name}: ${r.errors.join('; ')}`);
    }
    log(`  ${users.length} users connected to A/B (split) and to the single process`);

    let round = 0;
    const workload = (server, prefix) => {
      const r = round++;
      return Array.from({ length: perRun }, (_, i) => {
        // Students alternate A and B; so do teachers, out of step: every local/remote pairing occurs.
        const s = students[i % STUDENTS];
        const course = Math.floor(i / 2) % COURSES;
        const assignment = assignments[course * rounds + r];
        const key = nextKey();
        return {
          url: `${server.url}/api/assignments/${assignment.id}/submissions`,
          method: 'POST',
          headers: { authorization: `Bearer ${s.token}` },
          body: { content: `Across processes ${keyMark(key)}` },
          status: 201,
          label: 'submit',
          key,
          type: 'submission:created',
          expect: [`${prefix}:${s.id}`, `${prefix}:${teachers[course].id}`],
          check: { studentId: s.id, assignmentId: assignment.id },
        };
      });
    };
    // Waits long enough that "lost" means never delivered: a late event (seconds, when the server
    // is overloaded) is the p99's to report, not the integrity check's.
    const run = (server, prefix, pids) => () =>
      trial({ serverPids: pids, db, loadgen }, () =>
        loadgen.call('run', { requests: workload(server, prefix), rate: RATE, drainMs: 15_000 }),
      );
    const { results, discarded } = await interleave(
      { 'two processes + Redis': run(a, 's7x', [a.pid, b.pid]), 'single process': run(c, 's7c', [c.pid]) },
      { runs, log },
    );
    const two = results['two processes + Redis'];
    const one = results['single process'];
    const remote = (r) => r.events['remote (on B)'];
    const lines = [
      ...latencyLines(two, 'two processes: remote recipients (on B)', remote, ['p50', 'p99', 'max']),
      ...latencyLines(two, 'two processes: local recipients (on A)', (r) => r.events['local (on A)'], [
        'p50',
        'p99',
        'max',
      ]),
      ...latencyLines(one, 'single process: recipients', (r) => r.events['single process'], [
        'p50',
        'p99',
        'max',
      ]),
      ...latencyLines(two, 'two processes: submit', (r) => r.http.submit, ['p50', 'p99']),
      ...latencyLines(one, 'single process: submit', (r) => r.http.submit, ['p50', 'p99']),
      ...lockLines(two, 'two processes: '),
      ...lockLines(one, 'single process: '),
      {
        metric: 'two processes: app CPU per write (A + B)',
        value: spread(two, (r) => (r.cpu.server * 1000) / r.requests),
        unit: `ms (${discarded['two processes + Redis']} runs discarded)`,
      },
      {
        metric: 'single process: app CPU per write',
        value: spread(one, (r) => (r.cpu.server * 1000) / r.requests),
        unit: `ms (${discarded['single process']} runs discarded)`,
      },
    ];
    const delta = [];
    for (let i = 0; i < Math.min(two.length, one.length); i++)
      delta.push({ d: remote(two[i])?.p99 - one[i].events['single process']?.p99 });
    return {
      title: `${STUDENTS} students and ${COURSES} teachers, submissions at ${RATE}/s for ${seconds} s, writes on A, half the recipients on B`,
      lines,
      notes: [
        'All three app processes share core 0; Redis (127.0.0.1:6379, shared with other users of this machine) is not pinned.',
      ],
      targets: [
        target(
          'S7 remote p99 − single-process p99 ≤ 10 ms',
          spread(delta, (x) => x.d),
          10,
          '≤',
        ),
      ],
      broken: [
        ...integrity('S7 two processes', two).problems,
        ...integrity('S7 single process', one).problems,
      ],
      raw: results,
    };
  } finally {
    await cleanups.run();
  }
}
