// S11lessons (issue 29, DESIGN §21): a live lesson's question answered by the whole class. N = 1,000
// students (quick: 200), every one connected, answer one short-answer question within 5 s (quick:
// 2 s), open loop at N / window per second; each answer's `lesson:tally` reaches the teacher's
// tabs and its `lesson:answer` the student's own. Three variants, interleaved run by run:
//  - one app process: the teacher's tab, the students and every answer on it;
//  - two app processes on Redis (one database): the teacher has a tab on each, the students
//    alternate A and B and answer on the process their socket is on, so every tally reaches one tab
//    locally and the other through Redis;
//  - bare socket.io: the same rate of POST /broadcast, each one message of a tally's shape to the
//    teacher's room: socket.io's cost per message, HTTP request included, with no database.
// Each app run pushes a new question first (outside the measured trial), then closes it and checks
// that every answer was counted once: the teacher's last tally on every tab, the close's results,
// the answers' rows and the stored tally events.
import { randomUUID } from 'node:crypto';
import { everyoneIn, seedCourses, seedMembers, seedUsers } from '../lib/db.mjs';
import { cleanupStack, sleep } from '../lib/procs.mjs';
import { startApp, startBaseline } from '../lib/servers.mjs';
import { appOnPostgres, integrity, keyMark, latencyLines, nextKey, target } from '../lib/scenario.mjs';
import { ratio, spread } from '../lib/stats.mjs';
import { interleave, trial } from '../lib/trial.mjs';

const TALLY_LIMIT_MS = 250;
const REAL_STUDENTS = 3;
const SINGLE = 'single process';
const TWO = 'two processes + Redis';
const BARE = 'bare socket.io';

/** A `lesson:tally` as the app sends it for a short answer (the baseline adds the id). */
function tallyEvent(key, ids, n) {
  const counts = Array.from({ length: Math.min(20, n) }, (_, i) => ({ answer: `Paris ${i}`, count: 1 }));
  return {
    type: 'lesson:tally',
    at: new Date().toISOString(),
    data: {
      lessonId: ids.lessonId,
      courseId: ids.courseId,
      questionId: ids.questionId,
      results: { answered: n, correctCount: 0, counts },
      answer: {
        student: { id: randomUUID(), fullName: 'S11 Student 1' },
        answer: `Paris ${keyMark(key)}`,
        answeredAt: new Date().toISOString(),
        correct: false,
      },
    },
  };
}

export async function runS11lessons({
  loadgen,
  quick,
  runs,
  log,
  dbName,
  redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
}) {
  const n = quick ? 200 : 1000;
  const windowS = quick ? 2 : 5;
  const rate = n / windowS;
  const cleanups = cleanupStack();
  try {
    const { app: one, q, db } = await appOnPostgres(cleanups, dbName, { name: 'app-single' });
    const a = await startApp({ name: 'app-A', db: { kind: 'postgres', name: dbName }, redisUrl });
    cleanups.add(() => a.stop());
    const b = await startApp({ name: 'app-B', db: { kind: 'postgres', name: dbName }, redisUrl });
    cleanups.add(() => b.stop());
    const sio = await startBaseline('socketio');
    cleanups.add(() => sio.stop());
    const [teacher] = await seedUsers(q, 'teacher', 1, 'S11 Teacher');
    const [course] = await seedCourses(q, [teacher]);
    const students = await seedUsers(q, 'student', n, 'S11 Student');
    await seedMembers(q, everyoneIn(students, [course]));
    cleanups.add(() => loadgen.call('disconnect', { prefix: 's11' }));

    // Sockets: each variant's teacher tabs (socket.io-client, checked in full) and students.
    const tabs = {
      [SINGLE]: ['s11c:teacher'],
      [TWO]: ['s11a:teacher', 's11b:teacher'],
      [BARE]: ['s11s:teacher'],
    };
    const student = (prefix, s, i, extra = {}) => ({
      id: `${prefix}:${s.id}`,
      auth: { token: s.token, ...extra },
      label: 'student',
      real: i < REAL_STUDENTS,
    });
    const teacherTab = (id, label, extra = {}) => ({
      id,
      auth: { token: teacher.token, ...extra },
      label,
      real: true,
      // The new answer's mark, not one of the 20 most given before it; a re-read has none.
      keyAfter: '"answer":{',
    });
    const onB = (i) => i % 2 === 1;
    for (const [server, specs] of [
      [one, [teacherTab('s11c:teacher', 'teacher'), ...students.map((s, i) => student('s11c', s, i))]],
      [
        a,
        [
          teacherTab('s11a:teacher', 'teacher (on A)'),
          ...students.flatMap((s, i) => (onB(i) ? [] : [student('s11x', s, i)])),
        ],
      ],
      [
        b,
        [
          teacherTab('s11b:teacher', 'teacher (on B)'),
          ...students.flatMap((s, i) => (onB(i) ? [student('s11x', s, i)] : [])),
        ],
      ],
      [
        sio,
        [
          teacherTab('s11s:teacher', 'teacher', { rooms: ['teacher'] }),
          ...students.map((s, i) => student('s11s', s, i, { rooms: [`student:${i}`] })),
        ],
      ],
    ]) {
      const c = await loadgen.call('connect', { url: server.url, specs });
      if (c.failed)
        throw new Error(`S11lessons: ${c.failed} sockets failed on ${server.name}: ${c.errors.join('; ')}`);
    }
    log(`  ${n} students and the teacher connected to one app, to two on Redis and to bare socket.io`);

    const headers = { authorization: `Bearer ${teacher.token}` };
    const call = async (url, method, body, status) => {
      const res = await loadgen.call('fetch', { url, method, headers, body });
      if (res.status !== status) throw new Error(`S11lessons: ${method} ${url}: ${res.status} ${res.body}`);
      return JSON.parse(res.body);
    };
    const lesson = await call(`${one.url}/api/courses/${course.id}/lessons`, 'POST', undefined, 201);

    /** One run of an app variant: a new question, N answers in the window, then the checks. */
    const appRun = (variant, servers, serverFor) => async () => {
      const question = await call(
        `${servers[0].url}/api/lessons/${lesson.id}/questions`,
        'POST',
        { kind: 'short_answer', prompt: 'The capital of France?', correct: 'Paris' },
        201,
      );
      await sleep(500); // the question's fan-out to every student, before the measured part
      const order = students.map((_, i) => i).sort(() => Math.random() - 0.5);
      const requests = order.map((i) => {
        const key = nextKey();
        const server = serverFor(i);
        const s = students[i];
        return {
          url: `${server.url}/api/lessons/${lesson.id}/questions/${question.id}/answer`,
          method: 'PUT',
          headers: { authorization: `Bearer ${s.token}` },
          body: { answer: `Paris ${keyMark(key)}` },
          status: 200,
          label: 'answer',
          key,
          expect: [...tabs[variant], `${variant === TWO ? 's11x' : 's11c'}:${s.id}`],
          check: { questionId: question.id },
        };
      });
      const result = await trial({ serverPids: servers.map((s) => s.pid), db, loadgen }, () =>
        loadgen.call('run', { requests, rate, drainMs: 10_000 }),
      );
      await sleep(600); // the teachers' re-read of the tally after the burst (lessons/tally-refresh.ts)
      const lastTallies = await loadgen.call('lastData', { ids: tabs[variant], type: 'lesson:tally' });
      const closed = await call(
        `${servers[0].url}/api/lessons/${lesson.id}/questions/${question.id}/close`,
        'POST',
        undefined,
        200,
      );
      const [rows] = await q(
        `select count(*)::int as answers, count(distinct student_id)::int as students,
           (select count(*)::int from events where type = 'lesson:tally' and data->>'questionId' = $1::text
             and data->'answer' <> 'null'::jsonb) as tallies
         from lesson_answers where question_id = $1::uuid`,
        [question.id],
      );
      const counted = {
        lastTally: lastTallies.map((t) => (t?.questionId === question.id ? t.results.answered : null)),
        closed: closed.results?.answered,
        ...rows,
      };
      return { ...result, counted };
    };
    const bareRun = () => () => {
      const ids = { lessonId: lesson.id, courseId: course.id, questionId: randomUUID() };
      const requests = students.map(() => {
        const key = nextKey();
        return {
          url: `${sio.url}/broadcast`,
          method: 'POST',
          body: { rooms: ['teacher'], type: 'lesson:tally', payload: tallyEvent(key, ids, n) },
          status: 204,
          label: 'broadcast',
          key,
          expect: tabs[BARE],
        };
      });
      return trial({ serverPids: [sio.pid], loadgen }, () =>
        loadgen.call('run', { requests, rate, drainMs: 10_000 }),
      );
    };

    const { results, discarded } = await interleave(
      {
        [SINGLE]: appRun(SINGLE, [one], () => one),
        [TWO]: appRun(TWO, [a, b], (i) => (onB(i) ? b : a)),
        [BARE]: bareRun(),
      },
      { runs, warmup: quick ? 0 : 1, log },
    );
    return report({ n, windowS, rate, results, discarded });
  } finally {
    await cleanups.run();
  }
}

/** The rows, targets and integrity checks of the runs. */
function report({ n, windowS, rate, results, discarded }) {
  const L = 'S11 lessons:';
  const bare = results[BARE];
  const tallyOf = (variant) => (r) =>
    Math.max(
      ...(variant === TWO ? ['teacher (on A)', 'teacher (on B)'] : ['teacher']).map(
        (l) => r.events[l]?.p99 ?? NaN,
      ),
    );
  const perAnswer = (r) => (r.cpu.server * 1e6) / r.requests;
  const perMessage = (r) => (r.cpu.server * 1e6) / Math.max(1, r.eventsAll.count);
  const lines = [];
  const targets = [];
  const broken = [];
  for (const variant of [SINGLE, TWO]) {
    const rs = results[variant];
    const label = `${L} ${variant}:`;
    lines.push(
      {
        metric: `${label} teacher's tally p99 (answer sent → lesson:tally, worst tab)`,
        value: spread(rs, tallyOf(variant)),
        unit: 'ms',
      },
      ...(variant === TWO
        ? [
            ...latencyLines(
              rs,
              `${label} teacher's tab on A (local): tally`,
              (r) => r.events['teacher (on A)'],
              ['p50', 'p99', 'max'],
            ),
            ...latencyLines(
              rs,
              `${label} teacher's tab on B (through Redis): tally`,
              (r) => r.events['teacher (on B)'],
              ['p50', 'p99', 'max'],
            ),
          ]
        : latencyLines(rs, `${label} teacher's tally`, (r) => r.events.teacher, ['p50', 'p99', 'max'])),
      ...latencyLines(rs, `${label} student's own answer event`, (r) => r.events.student, ['p50', 'p99']),
      ...latencyLines(rs, `${label} answer request`, (r) => r.http.answer, ['p50', 'p95', 'p99']),
      {
        metric: `${label} achieved answer rate`,
        value: spread(rs, (r) => r.achievedRate),
        unit: 'answers/s',
      },
      {
        metric: `${label} app CPU per answer`,
        value: spread(rs, perAnswer),
        unit: `µs (${discarded[variant]} runs discarded)`,
      },
      {
        metric: `${label} PostgreSQL CPU per answer`,
        value: spread(rs, (r) => (r.cpu.db * 1e6) / r.requests),
        unit: 'µs',
      },
      {
        metric: `${label} app CPU per answer ÷ bare socket.io CPU per message`,
        value: ratio(rs, bare, perAnswer, perMessage),
        unit: 'an answer is an HTTP request, 2 messages and the database',
      },
      {
        metric: `${label} counted: teacher's last tally (each tab) / close / rows / students / stored tallies`,
        value: rs
          .map(
            (r) =>
              `${r.counted.lastTally.join('+')} / ${r.counted.closed} / ${r.counted.answers} / ${r.counted.students} / ${r.counted.tallies}`,
          )
          .join('; '),
        unit: `of ${n}, per run`,
      },
    );
    const wrong = rs.filter(
      (r) =>
        r.counted.closed !== n ||
        r.counted.answers !== n ||
        r.counted.students !== n ||
        r.counted.tallies !== n ||
        r.counted.lastTally.some((x) => x !== n),
    );
    for (const r of wrong)
      broken.push(`S11lessons ${variant}: answers not counted once (${JSON.stringify(r.counted)})`);
    broken.push(...integrity(`S11lessons ${variant}`, rs).problems);
    targets.push(
      exact(
        target(
          `${label} teacher's tally p99 ≤ ${TALLY_LIMIT_MS} ms (${n} answers in ${windowS} s)`,
          spread(rs, tallyOf(variant)),
          TALLY_LIMIT_MS,
          '≤',
        ),
      ),
      exact(target(`${label} answers not counted exactly once (runs)`, { median: wrong.length }, 0, '≤')),
      {
        ...exact(
          target(
            `${label} app CPU per answer ÷ bare socket.io CPU per message`,
            ratio(rs, bare, perAnswer, perMessage),
            0,
            '≥',
          ),
        ),
        met: null, // reported
      },
    );
  }
  lines.push(...latencyLines(bare, `${L} bare socket.io: message`, (r) => r.eventsAll, ['p50', 'p99']), {
    metric: `${L} bare socket.io: CPU per message (POST /broadcast + one emit)`,
    value: spread(bare, perMessage),
    unit: `µs (${discarded[BARE]} runs discarded)`,
  });
  broken.push(...integrity('S11lessons bare socket.io', bare).problems);
  return {
    title: `${n} students answer one question within ${windowS} s (${rate}/s, open loop), against one app, two on Redis and bare socket.io`,
    lines,
    targets,
    broken,
    notes: [
      'The question is a short answer and every answer differs (each carries its write’s mark), so the teacher’s results list the 20 most given: a multiple-choice tally is smaller.',
      'The two processes share core 0 with the single one and the baseline (each runs only in its turn); Redis is not pinned.',
    ],
    raw: results,
  };
}

const exact = (t) => ({ ...t, exact: true });
