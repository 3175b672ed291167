// S4: 5,000 connected clients in 200 groups of 25, 50 events/s (open loop).
// A submission's event goes to user rooms (the student and the course's teacher), not to the course's
// room. The closest honest app scenario: 200 courses, each a teacher and 24 member students
// (5,000 sockets), students submitting at 50/s, each event to its 2 recipients, with every other
// socket connected and idle. Beside it, a bare socket.io server with the same 5,000 clients in 200
// rooms of 25 broadcasting 50 events/s to one room each (1,250 deliveries/s).
import { randomUUID } from 'node:crypto';
import { seedAssignments, seedCourses, seedMembers, seedUsers } from '../lib/db.mjs';
import { cleanupStack } from '../lib/procs.mjs';
import { startBaseline } from '../lib/servers.mjs';
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

const PER_ROOM = 25;
const RATE = 50;

function submissionEvent(key, studentId, name) {
  const now = new Date().toISOString();
  return {
    type: 'submission:created',
    at: now,
    data: {
      id: randomUUID(),
      assignmentId: randomUUID(),
      studentId,
      content: `My answer ${keyMark(key)}`,
      submittedAt: now,
      grade: null,
      feedback: null,
      gradedAt: null,
      student: { id: studentId, fullName: name },
      version: 0,
      late: null,
      returnedAt: null,
      gradedBy: null,
    },
  };
}

export async function runS4({ loadgen, quick, runs, log, dbName }) {
  const seconds = quick ? 2 : 5;
  const ROOMS = quick ? 40 : 200; // quick: 1,000 sockets
  const perRun = RATE * seconds;
  const cleanups = cleanupStack();
  try {
    const { app, q, db } = await appOnPostgres(cleanups, dbName);
    const teachers = await seedUsers(q, 'teacher', ROOMS, 'S4 Teacher');
    const courses = await seedCourses(q, teachers);
    const assignments = await seedAssignments(q, courses, 1);
    const students = await seedUsers(q, 'student', ROOMS * (PER_ROOM - 1), 'S4 Student');
    await seedMembers(
      q,
      students.map((s, i) => [s.id, courses[i % ROOMS].id]),
    );
    const sio = await startBaseline('socketio');
    cleanups.add(() => sio.stop());
    cleanups.add(() => loadgen.call('disconnect', { prefix: 's4' }));

    const room = (i) => i % ROOMS; // student i is in course/room i % 200
    const appSpecs = [
      ...teachers.map((t, i) => ({
        id: `s4a:${t.id}`,
        auth: { token: t.token },
        label: 'teacher',
        real: i < 3,
      })),
      ...students.map((s) => ({ id: `s4a:${s.id}`, auth: { token: s.token }, label: 'student' })),
    ];
    const members = Array.from({ length: ROOMS }, () => []);
    const sioSpecs = [...teachers, ...students].map((u, i) => {
      const r = i < ROOMS ? i : room(i - ROOMS);
      members[r].push(`s4b:${u.id}`);
      return {
        id: `s4b:${u.id}`,
        auth: { token: u.token, rooms: [`room:${r}`] },
        label: 'member',
        real: i < 3,
      };
    });
    for (const [url, specs] of [
      [app.url, appSpecs],
      [sio.url, sioSpecs],
    ]) {
      const c = await loadgen.call('connect', { url, specs });
      if (c.failed) throw new Error(`S4: ${c.failed} sockets failed: ${c.errors.join('; ')}`);
    }
    log(`  ${appSpecs.length} sockets on the app and ${sioSpecs.length} on bare socket.io`);

    let nextStudent = 0;
    const appRun = () => {
      const requests = Array.from({ length: perRun }, () => {
        const i = nextStudent++ % students.length;
        const s = students[i];
        const c = room(i);
        const key = nextKey();
        return {
          url: `${app.url}/api/assignments/${assignments[c].id}/submissions`,
          method: 'POST',
          headers: { authorization: `Bearer ${s.token}` },
          body: { content: `My answer ${keyMark(key)}` },
          status: 201,
          label: 'submit',
          key,
          type: 'submission:created',
          expect: [`s4a:${s.id}`, `s4a:${teachers[c].id}`],
          check: { studentId: s.id },
        };
      });
      return trial({ serverPids: [app.pid], db, loadgen }, () =>
        loadgen.call('run', { requests, rate: RATE, drainMs: 2000 }),
      );
    };
    let nextRoom = 0;
    const sioRun = () => {
      const requests = Array.from({ length: perRun }, () => {
        const r = (nextRoom += 37) % ROOMS; // every room in turn, not in order
        const key = nextKey();
        return {
          url: `${sio.url}/broadcast`,
          method: 'POST',
          body: {
            rooms: [`room:${r}`],
            type: 'submission:created',
            payload: submissionEvent(key, randomUUID(), 'S4 Student'),
          },
          status: 204,
          label: 'broadcast',
          key,
          type: 'submission:created',
          expect: members[r],
        };
      });
      return trial({ serverPids: [sio.pid], loadgen }, () =>
        loadgen.call('run', { requests, rate: RATE, drainMs: 2000 }),
      );
    };
    const { results, discarded } = await interleave({ app: appRun, 'bare socket.io': sioRun }, { runs, log });
    const a = results.app;
    const b = results['bare socket.io'];
    if (students.length < perRun * (runs + 3))
      log('  (students submit a second time to the same assignment: expect 409s)');
    const lines = [
      ...latencyLines(a, 'app: event (student + teacher)', (r) => r.eventsAll),
      ...latencyLines(a, 'app: submit', (r) => r.http.submit, ['p50', 'p99']),
      {
        metric: 'app: CPU per event sent',
        value: spread(a, (r) => (r.cpu.server * 1000) / r.requests),
        unit: 'ms',
      },
      ...lockLines(a, 'app: '),
      {
        metric: 'app: core busy',
        value: spread(a, (r) => r.cpu.appCoreBusy),
        unit: `fraction (${discarded.app} runs discarded)`,
      },
      ...latencyLines(b, 'bare socket.io: event (room of 25)', (r) => r.eventsAll),
      {
        metric: 'bare socket.io: CPU per delivered event',
        value: spread(b, (r) => (r.cpu.server * 1e6) / Math.max(1, r.eventsAll.count)),
        unit: `µs (${discarded['bare socket.io']} runs discarded)`,
      },
      {
        metric: 'scheduler lag p99 (load generator)',
        value: spread([...a, ...b], (r) => r.schedulerLag.p99),
        unit: 'ms',
      },
    ];
    return {
      title: `${ROOMS * PER_ROOM} sockets, ${ROOMS} groups of ${PER_ROOM}, ${RATE} events/s for ${seconds} s`,
      lines,
      notes: [
        'The app has no per-course room: a submission event reaches 2 users (the student and the teacher), so its figure is "write → event at both recipients while every other socket is connected"; the 25-member room fan-out is measured on bare socket.io only.',
      ],
      targets: [
        target(
          `S4 app event p99 ≤ 5 ms (write → both recipients, ${ROOMS * PER_ROOM} connected)`,
          spread(a, (r) => r.eventsAll.p99),
          5,
          '≤',
        ),
        target(
          'S4 bare socket.io room-of-25 event p99 ≤ 5 ms (reference)',
          spread(b, (r) => r.eventsAll.p99),
          5,
          '≤',
        ),
      ],
      broken: [...integrity('S4 app', a).problems, ...integrity('S4 bare socket.io', b).problems],
      raw: results,
    };
  } finally {
    await cleanups.run();
  }
}
