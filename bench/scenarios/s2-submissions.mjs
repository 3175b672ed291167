// S2: teachers watching their open submissions lists while 1,000 students in 40 courses submit at
// 200 writes/s (open loop). Measures the submit latency, the latency of submission:created at the
// teacher's socket (and the student's own), and that every event arrives exactly once. Bare
// Fastify's 50-item list (S1's `fastify /assignments`) runs interleaved with it, for issue 30's
// ratio of the submit p99 to the bare list's p99 in the same run.
import { seedAssignments, seedCourses, seedMembers, seedUsers } from '../lib/db.mjs';
import { BARE_LIST, bareFastifyList } from '../lib/bare-list.mjs';
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
import { ratio, spread } from '../lib/stats.mjs';
import { interleave, trial } from '../lib/trial.mjs';

const REAL_CLIENTS = 5;

export async function runS2({ loadgen, quick, runs, log, dbName }) {
  // quick: 400 students in 16 courses at 100/s, which proves the harness, not the target.
  const COURSES = quick ? 16 : 40;
  const STUDENTS = quick ? 400 : 1000;
  const RATE = quick ? 100 : 200;
  const seconds = quick ? 2 : 5;
  const perRun = RATE * seconds; // at most one submission per student per assignment
  const cleanups = cleanupStack();
  try {
    const { app, q, db } = await appOnPostgres(cleanups, dbName);
    const teachers = await seedUsers(q, 'teacher', COURSES, 'S2 Teacher');
    const courses = await seedCourses(q, teachers);
    const students = await seedUsers(q, 'student', STUDENTS, 'S2 Student');
    // One fresh assignment per course for every round (warm-up, runs, retries).
    const rounds = 1 + runs + 2;
    const assignments = await seedAssignments(q, courses, rounds);
    const courseOf = (i) => i % COURSES; // students spread evenly: 25 per course
    await seedMembers(
      q,
      students.map((s, i) => [s.id, courses[courseOf(i)].id]),
    );
    const assignmentFor = (course, round) => assignments[course * rounds + round];

    cleanups.add(() => loadgen.call('disconnect', { prefix: 's2:' }));
    const specs = [
      ...teachers.map((t, i) => ({
        id: `s2:${t.id}`,
        auth: { token: t.token },
        label: i < REAL_CLIENTS ? 'teacher (socket.io-client)' : 'teacher',
        real: i < REAL_CLIENTS,
      })),
      ...students.map((s) => ({ id: `s2:${s.id}`, auth: { token: s.token }, label: 'student' })),
    ];
    const connected = await loadgen.call('connect', { url: app.url, specs });
    if (connected.failed)
      throw new Error(`S2: ${connected.failed} sockets failed to connect: ${connected.errors.join('; ')}`);
    log(`  ${connected.connected} sockets connected in ${(connected.ms / 1000).toFixed(1)} s`);

    let round = 0;
    const courseOfKey = new Map();
    const variant = async () => {
      const r = round++;
      const auth = (u) => ({ authorization: `Bearer ${u.token}` });
      // Each teacher opens the submissions list of this round's assignment (empty so far).
      for (let c = 0; c < COURSES; c++) {
        const res = await loadgen.call('fetch', {
          url: `${app.url}/api/assignments/${assignmentFor(c, r).id}/submissions`,
          headers: auth(teachers[c]),
        });
        if (res.status !== 200) throw new Error(`S2: teacher list ${res.status} ${res.body.slice(0, 200)}`);
      }
      const requests = students.slice(0, perRun).map((s, i) => {
        const course = courseOf(i);
        const assignment = assignmentFor(course, r);
        const key = nextKey();
        courseOfKey.set(key, course);
        return {
          url: `${app.url}/api/assignments/${assignment.id}/submissions`,
          method: 'POST',
          headers: auth(s),
          body: { content: `My answer ${keyMark(key)}` },
          status: 201,
          label: 'submit',
          key,
          type: 'submission:created',
          expect: [`s2:${s.id}`, `s2:${teachers[course].id}`],
          check: { assignmentId: assignment.id, studentId: s.id },
        };
      });
      const result = await trial({ serverPids: [app.pid], db, loadgen }, () =>
        loadgen.call('run', { requests, rate: RATE, drainMs: 2000 }),
      );
      // The teacher's list, read again, holds exactly what was accepted (201) in this run.
      let mismatched = 0;
      for (let c = 0; c < COURSES; c++) {
        const res = await loadgen.call('fetch', {
          url: `${app.url}/api/assignments/${assignmentFor(c, r).id}/submissions`,
          headers: auth(teachers[c]),
        });
        const expected = requests.filter((req) => req.expect[1] === `s2:${teachers[c].id}`).length;
        const failed = result.failedKeys?.filter((k) => courseOfKey.get(k) === c).length ?? 0;
        if (res.status !== 200 || JSON.parse(res.body).length !== expected - failed) mismatched++;
      }
      result.listMismatches = mismatched;
      return result;
    };
    const bare = await bareFastifyList(cleanups, loadgen, { quick });
    const { results, discarded } = await interleave({ app: variant, [BARE_LIST]: bare }, { runs, log });
    const rs = results.app;
    const bareRs = results[BARE_LIST];
    const still = await loadgen.call('connectedCount', { prefix: 's2:' });

    const lines = [
      { metric: 'achieved write rate', value: spread(rs, (r) => r.achievedRate), unit: 'writes/s' },
      ...latencyLines(rs, 'submit latency', (r) => r.http.submit),
      ...latencyLines(rs, 'event at the teacher', (r) => r.events.teacher),
      ...latencyLines(
        rs,
        'event at the teacher (socket.io-client)',
        (r) => r.events['teacher (socket.io-client)'],
        ['p50', 'p99'],
      ),
      ...latencyLines(rs, "event at the student's own socket", (r) => r.events.student, ['p50', 'p99']),
      {
        metric: 'app CPU per write',
        value: spread(rs, (r) => (r.cpu.server * 1000) / r.requests),
        unit: 'ms',
      },
      {
        metric: 'PostgreSQL backend CPU per write',
        value: spread(rs, (r) => (r.cpu.db * 1000) / r.requests),
        unit: 'ms',
      },
      ...lockLines(rs),
      { metric: 'app core busy', value: spread(rs, (r) => r.cpu.appCoreBusy), unit: 'fraction' },
      {
        metric: 'load core busy',
        value: spread(rs, (r) => r.cpu.loadCoreBusy),
        unit: `fraction (${discarded.app} runs discarded)`,
      },
      {
        metric: 'scheduler lag p99 (load generator)',
        value: spread(rs, (r) => r.schedulerLag.p99),
        unit: 'ms',
      },
      {
        metric: `${BARE_LIST}: latency p99 (closed loop, 20 connections)`,
        value: spread(bareRs, (r) => r.latency.p99),
        unit: `ms (${discarded[BARE_LIST]} runs discarded)`,
      },
      { metric: `${BARE_LIST}: req/s`, value: spread(bareRs, (r) => r.rps), unit: 'req/s' },
      {
        metric: 'events lost / duplicated / misdirected',
        value: `${sum(rs, 'lost')} / ${sum(rs, 'duplicated')} / ${sum(rs, 'unexpected')}`,
        unit: 'all runs',
      },
    ];
    const { problems } = integrity('S2', rs);
    const mismatches = rs.reduce((a, r) => a + (r.listMismatches ?? 0), 0);
    if (mismatches > 0)
      problems.push(`S2: ${mismatches} teacher lists did not hold every accepted submission`);
    if (still.down > 0) problems.push(`S2: ${still.down} sockets dropped during the runs`);
    return {
      title: `${STUDENTS} students in ${COURSES} courses submit at ${RATE}/s for ${seconds} s; ${COURSES} teachers (${REAL_CLIENTS} on socket.io-client) and every student connected`,
      lines,
      targets: [
        target(
          'S2 submit p99 ≤ 25 ms',
          spread(rs, (r) => r.http.submit.p99),
          25,
          '≤',
        ),
        target(
          "S2 teacher's event p99 − submit p99 ≤ 5 ms",
          spread(rs, (r) => r.events.teacher.p99 - r.http.submit.p99),
          5,
          '≤',
        ),
        {
          ...target(
            'S2: submit p99 ÷ bare Fastify list p99',
            ratio(
              rs,
              bareRs,
              (r) => r.http.submit.p99,
              (r) => r.latency.p99,
            ),
            3,
            '≤',
          ),
          exact: true,
        },
        target(
          'S2 events lost + duplicated = 0',
          { median: sum(rs, 'lost') + sum(rs, 'duplicated'), min: 0, max: 0 },
          0,
          '≤',
        ),
      ],
      broken: problems,
      raw: rs,
    };
  } finally {
    await cleanups.run();
  }
}

const sum = (rs, k) => rs.reduce((a, r) => a + (r[k] ?? 0), 0);
