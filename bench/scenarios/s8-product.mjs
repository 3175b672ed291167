// S8: the product load. 5,000 users connected (200 teachers, 4,800 students), 1,000 of them active
// (50 teachers, 950 students) sending about 330 requests/s, open loop, mixed:
//   students: GET /api/assignments 30 %, GET /api/dashboard 15 %, GET /api/courses 10 %,
//             GET /api/events 6 %, POST a submission 15 % (event to the student and the teacher)
//   teachers: GET an assignment's submissions 12 %, PATCH a grade 12 % (event to both),
//             and one new assignment every 5 s (event to every student and the teacher).
// 50 courses hold one assignment each (so the students' assignment list has 50 items, as in S1),
// with 40 submissions each to grade. Reports API and event latency and the app core's headroom.
import { seedAssignments, seedCourses, seedSubmissions, seedUsers } from '../lib/db.mjs';
import { cleanupStack } from '../lib/procs.mjs';
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
    const teachers = await seedUsers(q, 'teacher', TEACHERS, 'S8 Teacher');
    const courses = await seedCourses(q, teachers);
    const assignments = await seedAssignments(q, courses.slice(0, ACTIVE_TEACHERS), 1);
    const students = await seedUsers(q, 'student', STUDENTS, 'S8 Student');
    // Up to 40 submissions on each assignment, from students who are not active (no submit collides).
    const idle = students.slice(ACTIVE_STUDENTS);
    const per = Math.min(40, Math.floor(idle.length / ACTIVE_TEACHERS));
    const seeded = await seedSubmissions(
      q,
      assignments.flatMap((a, i) => idle.slice(i * per, i * per + per).map((s) => [s.id, a.id])),
    );
    const byAssignment = new Map(
      assignments.map((a) => [a.id, seeded.filter((s) => s.assignmentId === a.id)]),
    );
    cleanups.add(() => loadgen.call('disconnect', { prefix: 's8' }));
    const c = await loadgen.call('connect', {
      url: app.url,
      specs: [...teachers, ...students].map((u, i) => ({
        id: `s8:${u.id}`,
        auth: { token: u.token },
        label: i < TEACHERS ? 'teacher' : 'student',
        real: i < 2 || (i >= TEACHERS && i < TEACHERS + 3),
      })),
    });
    if (c.failed) throw new Error(`S8: ${c.failed} sockets failed: ${c.errors.join('; ')}`);
    log(`  ${c.connected} users connected in ${(c.ms / 1000).toFixed(1)} s`);

    const allStudents = students.map((s) => `s8:${s.id}`);
    const activeStudents = students.slice(0, ACTIVE_STUDENTS);
    const submitted = new Set(); // `${student}:${assignment}`
    let counter = 0;
    let rng = 12345;
    const random = () => (rng = (rng * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pick = (list) => list[Math.floor(random() * list.length)];
    const auth = (u) => ({ authorization: `Bearer ${u.token}` });

    const oneRequest = (i) => {
      const url = app.url;
      // One new assignment every 5 s, to every student.
      if (i % (RATE * 5) === RATE * 5 - 1) {
        const t = Math.floor(random() * ACTIVE_TEACHERS);
        const key = nextKey();
        return {
          url: `${url}/api/assignments`,
          method: 'POST',
          headers: auth(teachers[t]),
          status: 201,
          label: 'POST assignment',
          key,
          type: 'assignment:created',
          body: {
            title: `New work ${keyMark(key)}`,
            dueDate: new Date(Date.now() + 14 * 86_400_000).toISOString(),
            courseId: courses[t].id,
          },
          expect: [...allStudents, `s8:${teachers[t].id}`],
        };
      }
      const r = random();
      if (r < 0.76) {
        const s = pick(activeStudents);
        if (r < 0.3) return { url: `${url}/api/assignments`, headers: auth(s), label: 'GET assignments' };
        if (r < 0.45) return { url: `${url}/api/dashboard`, headers: auth(s), label: 'GET dashboard' };
        if (r < 0.55) return { url: `${url}/api/courses`, headers: auth(s), label: 'GET courses' };
        if (r < 0.61)
          return {
            url: `${url}/api/events?after=${Math.max(0, counter - 50)}`,
            headers: auth(s),
            label: 'GET events',
          };
        // A submission to an assignment this student has not submitted yet.
        for (let tries = 0; tries < 10; tries++) {
          const a = Math.floor(random() * assignments.length);
          if (submitted.has(`${s.id}:${a}`)) continue;
          submitted.add(`${s.id}:${a}`);
          const key = nextKey();
          return {
            url: `${url}/api/assignments/${assignments[a].id}/submissions`,
            method: 'POST',
            headers: auth(s),
            status: 201,
            label: 'POST submission',
            key,
            type: 'submission:created',
            body: { content: `Answer ${keyMark(key)}` },
            expect: [`s8:${s.id}`, `s8:${teachers[a].id}`],
            check: { studentId: s.id },
          };
        }
        return { url: `${url}/api/assignments`, headers: auth(s), label: 'GET assignments' };
      }
      const t = Math.floor(random() * ACTIVE_TEACHERS);
      if (r < 0.88)
        return {
          url: `${url}/api/assignments/${assignments[t].id}/submissions`,
          headers: auth(teachers[t]),
          label: 'GET submissions',
        };
      const sub = pick(byAssignment.get(assignments[t].id));
      const key = nextKey();
      return {
        url: `${url}/api/submissions/${sub.id}`,
        method: 'PATCH',
        headers: auth(teachers[t]),
        label: 'PATCH grade',
        key,
        type: 'submission:graded',
        body: { grade: Math.floor(random() * 100), feedback: `Well done ${keyMark(key)}` },
        expect: [`s8:${sub.studentId}`, `s8:${teachers[t].id}`],
        check: { id: sub.id },
      };
    };
    const variant = () => {
      const requests = Array.from({ length: RATE * seconds }, () => oneRequest(counter++));
      return trial({ serverPids: [app.pid], db, loadgen }, () =>
        loadgen.call('run', { requests, rate: RATE, drainMs: 3000 }),
      );
    };
    const { results, discarded } = await interleave({ app: variant }, { runs, log });
    const rs = results.app;
    const labels = [
      'GET assignments',
      'GET dashboard',
      'GET courses',
      'GET events',
      'POST submission',
      'GET submissions',
      'PATCH grade',
      'POST assignment',
    ];
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
