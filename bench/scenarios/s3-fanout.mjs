// S3: fan-out. A teacher creates an assignment while N students are connected (N = 1,000 and
// 5,000): assignment:created reaches every student. Compared in the same runs with a bare socket.io
// server broadcasting a payload of the same shape to a room of the same N, and with raw ws (the floor).
import { randomUUID } from 'node:crypto';
import { everyoneIn, seedCourses, seedMembers, seedUsers } from '../lib/db.mjs';
import { cleanupStack } from '../lib/procs.mjs';
import { startBaseline } from '../lib/servers.mjs';
import { appOnPostgres, broadcastRequest, integrity, keyMark, nextKey, target } from '../lib/scenario.mjs';
import { ratio, spread } from '../lib/stats.mjs';
import { interleave, trial } from '../lib/trial.mjs';

const REAL_CLIENTS = 5;

/** An assignment:created payload as the app sends it (the baselines add the id). */
function assignmentEvent(key, courseId) {
  const now = new Date().toISOString();
  return {
    type: 'assignment:created',
    at: now,
    data: {
      id: randomUUID(),
      title: `Quiz ${keyMark(key)}`,
      description: '',
      dueDate: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      maxPoints: 100,
      courseId,
      courseTitle: 'Course 1.1',
      createdAt: now,
      submission: null,
      submissionCount: 0,
    },
  };
}

export async function runS3({ loadgen, quick, runs, log, dbName }) {
  const sizes = quick ? [200, 500] : [1000, 5000];
  const cleanups = cleanupStack();
  try {
    const { app, q, db } = await appOnPostgres(cleanups, dbName);
    const [teacher] = await seedUsers(q, 'teacher', 1, 'S3 Teacher');
    const [course] = await seedCourses(q, [teacher]);
    const students = await seedUsers(q, 'student', sizes.at(-1), 'S3 Student');
    await seedMembers(q, everyoneIn(students, [course]));
    const sio = await startBaseline('socketio');
    cleanups.add(() => sio.stop());
    const ws = await startBaseline('ws');
    cleanups.add(() => ws.stop());
    cleanups.add(() => loadgen.call('disconnect', { prefix: 's3' }));

    const out = { lines: [], targets: [], broken: [], raw: {} };
    let have = 0;
    for (const n of sizes) {
      const eventsPerRun = quick ? 3 : n > 1000 ? 6 : 10;
      // Connect students up to n on each server (the first few through socket.io-client).
      const slice = students.slice(have, n);
      const spec = (prefix, s, i, extra) => {
        const real = prefix !== 's3w' && have + i < REAL_CLIENTS;
        return { id: `${prefix}:${s.id}`, label: real ? 'socket.io-client' : 'light', real, ...extra };
      };
      for (const [url, kind, prefix, extra] of [
        [app.url, 'eio', 's3a', (s) => ({ auth: { token: s.token } })],
        [sio.url, 'eio', 's3b', (s) => ({ auth: { token: s.token, rooms: ['students'] } })],
        [ws.url, 'ws', 's3w', () => ({ rooms: ['students'] })],
      ]) {
        const c = await loadgen.call('connect', {
          url,
          kind,
          specs: slice.map((s, i) => spec(prefix, s, i, extra(s))),
        });
        if (c.failed) throw new Error(`S3: ${c.failed} ${prefix} sockets failed: ${c.errors.join('; ')}`);
      }
      have = n;
      log(`  N = ${n}: ${n} students connected to the app, to bare socket.io and to raw ws`);
      const ids = (prefix) => students.slice(0, n).map((s) => `${prefix}:${s.id}`);
      const expected = { app: ids('s3a'), sio: ids('s3b'), ws: ids('s3w') };

      const fanout = (server, makeRequest) => () =>
        trial({ serverPids: [server.pid], db: server === app ? db : undefined, loadgen }, () =>
          loadgen.call('run', {
            requests: Array.from({ length: eventsPerRun }, () => makeRequest(nextKey())),
            sequential: true,
            gapMs: 50,
            eventTimeoutMs: 10_000,
            drainMs: 2000,
          }),
        );
      const appRequest = (key) => ({
        url: `${app.url}/api/assignments`,
        method: 'POST',
        headers: { authorization: `Bearer ${teacher.token}` },
        body: {
          title: `Quiz ${keyMark(key)}`,
          dueDate: new Date(Date.now() + 7 * 86_400_000).toISOString(),
          courseId: course.id,
          maxPoints: 100,
        },
        status: 201,
        label: 'create',
        key,
        type: 'assignment:created',
        expect: expected.app,
        check: { courseId: course.id },
      });
      const broadcast = (server, expect) => (key) =>
        broadcastRequest(server, {
          rooms: ['students'],
          type: 'assignment:created',
          payload: assignmentEvent(key, course.id),
          key,
          expect,
        });
      const { results, discarded } = await interleave(
        {
          app: fanout(app, appRequest),
          'bare socket.io': fanout(sio, broadcast(sio, expected.sio)),
          'raw ws': fanout(ws, broadcast(ws, expected.ws)),
        },
        { runs, log },
      );
      const perDelivery = (r) => (r.cpu.server * 1e6) / Math.max(1, r.eventsAll.count);
      for (const [name, rs] of Object.entries(results)) {
        for (const p of ['p50', 'p99', 'max'])
          out.lines.push({
            metric: `N=${n} ${name}: event ${p}`,
            value: spread(rs, (r) => r.eventsAll[p]),
            unit: 'ms',
          });
        out.lines.push({
          metric: `N=${n} ${name}: server CPU per delivered event`,
          value: spread(rs, perDelivery),
          unit: `µs (${discarded[name]} runs discarded)`,
        });
        out.broken.push(...integrity(`S3 N=${n} ${name}`, rs).problems);
      }
      out.lines.push({
        metric: `N=${n} app: PostgreSQL CPU per delivered event`,
        value: spread(results.app, (r) => (r.cpu.db * 1e6) / Math.max(1, r.eventsAll.count)),
        unit: 'µs',
      });
      out.lines.push({
        metric: `N=${n} app: create request latency p50`,
        value: spread(results.app, (r) => r.http.create.p50),
        unit: 'ms',
      });
      const p99 = (r) => r.eventsAll.p99;
      const latencyRatio = ratio(results.app, results['bare socket.io'], p99);
      const cpuRatio = ratio(results.app, results['bare socket.io'], perDelivery);
      out.lines.push({
        metric: `N=${n} ratio app / bare socket.io: event p99`,
        value: latencyRatio,
        unit: '',
      });
      out.lines.push({
        metric: `N=${n} ratio app / bare socket.io: CPU per delivered event`,
        value: cpuRatio,
        unit: '',
      });
      out.lines.push({
        metric: `N=${n} ratio bare socket.io / raw ws: event p99`,
        value: ratio(results['bare socket.io'], results['raw ws'], p99),
        unit: '',
      });
      out.targets.push(target(`S3 N=${n}: event p99 ≤ 1.1 × bare socket.io`, latencyRatio, 1.1, '≤'));
      out.targets.push(target(`S3 N=${n}: app CPU per delivered event ≤ 1.15 × bare`, cpuRatio, 1.15, '≤'));
      out.raw[n] = results;
    }
    return {
      title: `one assignment created for N connected students, ${quick ? 3 : '10 (N = 1,000) or 6 (N = 5,000)'} events per run, one after another`,
      ...out,
    };
  } finally {
    await cleanups.run();
  }
}
