// S1: closed-loop HTTP throughput. GET /api/health and an authenticated GET /api/assignments (a
// student's view of 50 assignments) on the app over PostgreSQL and over PGlite, beside bare node:http
// and a bare Fastify route with a response schema serving the same bodies.
import {
  createDatabase,
  dropDatabase,
  pgQuery,
  pgliteQuery,
  seedAssignments,
  seedCourses,
  seedMembers,
  everyoneIn,
  seedUsers,
} from '../lib/db.mjs';
import { startApp, startBaseline, tempDir } from '../lib/servers.mjs';
import { interleave, trial } from '../lib/trial.mjs';
import { APP_CORE, cleanupStack } from '../lib/procs.mjs';
import { target } from '../lib/scenario.mjs';
import { ratio, spread } from '../lib/stats.mjs';

async function seedS1(q) {
  const teachers = await seedUsers(q, 'teacher', 5, 'S1 Teacher');
  const courses = await seedCourses(q, teachers);
  await seedAssignments(q, courses, 10);
  const [student] = await seedUsers(q, 'student', 1, 'S1 Student');
  // A member of every course, so the list holds all 50 assignments.
  await seedMembers(q, everyoneIn([student], courses));
  return student;
}

export async function runS1({ loadgen, quick, runs, log, dbName }) {
  const duration = quick ? 1 : 2;
  const connections = 20;
  const cleanups = cleanupStack();
  try {
    await createDatabase(dbName);
    cleanups.add(() => dropDatabase(dbName));
    const pgApp = await startApp({ name: 'app-pg', db: { kind: 'postgres', name: dbName } });
    cleanups.add(() => pgApp.stop());
    const q = await pgQuery(dbName);
    cleanups.add(() => q.close());
    const pgStudent = await seedS1(q);

    // PGlite: the app creates and migrates the data directory, then (stopped) it is seeded.
    const tmp = tempDir('classwave-bench-pglite-');
    cleanups.add(() => tmp.cleanup());
    let liteApp = await startApp({ name: 'app-pglite', db: { kind: 'pglite', dataDir: tmp.dir } });
    await liteApp.stop();
    const lq = await pgliteQuery(tmp.dir);
    const liteStudent = await seedS1(lq);
    await lq.close();
    liteApp = await startApp({ name: 'app-pglite', db: { kind: 'pglite', dataDir: tmp.dir } });
    cleanups.add(() => liteApp.stop());

    const nodeHttp = await startBaseline('node-http');
    cleanups.add(() => nodeHttp.stop());
    const fastify = await startBaseline('fastify');
    cleanups.add(() => fastify.stop());
    const stack = await startBaseline('fastify-stack');
    cleanups.add(() => stack.stop());

    // Both app flavours must answer what is measured before it is measured.
    for (const [app, student] of [
      [pgApp, pgStudent],
      [liteApp, liteStudent],
    ]) {
      const res = await loadgen.call('fetch', {
        url: `${app.url}/api/assignments`,
        headers: { authorization: `Bearer ${student.token}` },
      });
      const list = JSON.parse(res.body);
      if (res.status !== 200 || list.length !== 50)
        throw new Error(`${app.name} GET /api/assignments: ${res.status}, ${list.length} items`);
    }

    const closed =
      (server, path, { headers, db } = {}) =>
      async () =>
        trial({ serverPids: [server.pid], db, loadgen }, () =>
          loadgen.call('autocannon', { url: `${server.url}${path}`, headers, connections, duration }),
        );
    const auth = (s) => ({ authorization: `Bearer ${s.token}` });
    // Closed loop: PostgreSQL runs with the app on the app core, so the load core runs only the
    // load (the database would otherwise saturate it) and the app's figure includes its database.
    const pgDb = { q, name: dbName, core: APP_CORE };
    const variants = {
      'node:http /health': closed(nodeHttp, '/health'),
      'fastify /health': closed(fastify, '/health'),
      'fastify /assignments': closed(fastify, '/assignments'),
      // Diagnostic: bare Fastify with the app's plugins (helmet, CORS, cookies, rate limit, swagger).
      'fastify + app plugins /health': closed(stack, '/health'),
      'app pg /api/health': closed(pgApp, '/api/health', { db: pgDb }),
      'app pg /api/assignments': closed(pgApp, '/api/assignments', { headers: auth(pgStudent), db: pgDb }),
      'app pglite /api/health': closed(liteApp, '/api/health'),
      'app pglite /api/assignments': closed(liteApp, '/api/assignments', { headers: auth(liteStudent) }),
    };
    const { results, discarded } = await interleave(variants, { runs, log });

    const lines = [];
    let errors = 0;
    for (const [name, rs] of Object.entries(results)) {
      lines.push({ metric: `${name}: req/s`, value: spread(rs, (r) => r.rps), unit: 'req/s' });
      lines.push({ metric: `${name}: latency p99`, value: spread(rs, (r) => r.latency.p99), unit: 'ms' });
      lines.push({
        metric: `${name}: server CPU per request`,
        value: spread(rs, (r) => (r.cpu.server * 1e6) / r.requests),
        unit: 'µs',
      });
      if (name.startsWith('app pg '))
        lines.push({
          metric: `${name}: PostgreSQL backend CPU per request`,
          value: spread(rs, (r) => (r.cpu.db * 1e6) / r.requests),
          unit: 'µs',
        });
      lines.push({
        metric: `${name}: load core busy`,
        value: spread(rs, (r) => r.cpu.loadCoreBusy),
        unit: `fraction (${discarded[name]} runs discarded)`,
      });
      errors += rs.reduce((a, r) => a + r.errors + r.non2xx, 0);
    }
    const rps = (r) => r.rps;
    const ratios = {
      'app pg health / fastify health': ratio(results['app pg /api/health'], results['fastify /health'], rps),
      'app pg assignments / fastify health': ratio(
        results['app pg /api/assignments'],
        results['fastify /health'],
        rps,
      ),
      'app pg assignments / fastify assignments': ratio(
        results['app pg /api/assignments'],
        results['fastify /assignments'],
        rps,
      ),
      'app pglite health / fastify health': ratio(
        results['app pglite /api/health'],
        results['fastify /health'],
        rps,
      ),
      'app pglite assignments / fastify assignments': ratio(
        results['app pglite /api/assignments'],
        results['fastify /assignments'],
        rps,
      ),
      'fastify health / node:http health': ratio(
        results['fastify /health'],
        results['node:http /health'],
        rps,
      ),
      'fastify + app plugins health / fastify health': ratio(
        results['fastify + app plugins /health'],
        results['fastify /health'],
        rps,
      ),
      'app pg health / fastify + app plugins health': ratio(
        results['app pg /api/health'],
        results['fastify + app plugins /health'],
        rps,
      ),
    };
    for (const [name, r] of Object.entries(ratios))
      lines.push({ metric: `ratio ${name}`, value: r, unit: 'req/s ÷ req/s' });
    const targets = [
      target(
        'S1 health ≥ 0.90 × bare Fastify (PostgreSQL)',
        ratios['app pg health / fastify health'],
        0.9,
        '≥',
      ),
      // Issue 15's targets: a signed-in database read against bare Fastify serving the same body.
      target(
        'S1 assignments ≥ 0.50 × bare Fastify, same 50-item body (PostgreSQL)',
        ratios['app pg assignments / fastify assignments'],
        0.5,
        '≥',
      ),
      target(
        'S1 assignments ≥ 0.25 × bare Fastify, same 50-item body (PGlite)',
        ratios['app pglite assignments / fastify assignments'],
        0.25,
        '≥',
      ),
    ];
    return {
      title: `closed loop, ${connections} connections, ${duration} s per run`,
      lines,
      ratios,
      targets,
      broken: errors > 0 ? [`S1: ${errors} HTTP errors or non-2xx answers`] : [],
      raw: results,
    };
  } finally {
    await cleanups.run();
  }
}
