#!/usr/bin/env node
// `node bench/profile.mjs <health|assignments|submit|connect|fanout|s3|school|upload|posts> [seconds]`: runs the app under one
// load with --cpu-prof and prints where its CPU time goes (self time by function, inclusive by package).
// `s3` profiles only S3's measured phase at N = 1,000 (creates to a class of 5,000, 1,000 connected),
// through the probe's profiler: start-up, seeding and connecting are left out. `school` profiles S8school's
// mix over the quick school the same way, then costs each kind of request alone (lib/school-profile.mjs).
// `upload [count] [MB] [chunk MB]` profiles only S10's tus uploads, one after another (default 5 × 100 MB,
// each in one PATCH), after warm-up uploads, through the probe; each upload's time is printed.
// `posts` profiles S12posts' case at N = 30: posts to a class of 30 connected students, one at a time
// (the owner and four co-teachers in turn, under the per-account limit), its measured phase only.
// The .cpuprofile is kept under bench/results/profiles/ (open it in Chrome DevTools).
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { BENCH, cleanupStack } from './lib/procs.mjs';
import {
  everyoneIn,
  seedAssignments,
  seedCoTeachers,
  seedCourses,
  seedMembers,
  seedUsers,
} from './lib/db.mjs';
import { probe, startLoadgen, tempDir } from './lib/servers.mjs';
import { appOnPostgres, keyMark, nextKey } from './lib/scenario.mjs';
import { profileSchool } from './lib/school-profile.mjs';
import { MB } from './lib/uploads.mjs';

const what = process.argv[2] ?? 'health';
const seconds = Number(process.argv[3] ?? 10);
/** Modes that profile only their measured phase, through the probe's profiler. */
const phased = what === 'school' || what === 'upload';
const tmp = path.join(BENCH, 'results/profiles/.tmp');
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });
const cleanups = cleanupStack();
try {
  const loadgen = await startLoadgen();
  cleanups.add(() => loadgen.stop());
  const dbName = `bench_profile_${process.pid}`;
  // `school` profiles its phase through the probe: a profiler running all along would add its own
  // cost to the CPU per request it reports.
  const data = tempDir('classwave-profile-');
  cleanups.add(data.cleanup);
  const { app, q } = await appOnPostgres(cleanups, dbName, {
    // PROFILE_NODE_FLAGS: more of node's flags for the app (e.g. --trace-gc, seen with BENCH_VERBOSE=1).
    nodeFlags: [
      ...(phased ? [] : ['--cpu-prof', `--cpu-prof-dir=${tmp}`]),
      ...(process.env.PROFILE_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
    ],
    env: what === 'upload' ? { DATA_DIR: data.dir, UPLOAD_MAX_BYTES: String(4096 * MB) } : {},
  });
  if (what === 'upload')
    await profileUploads({
      app,
      q,
      loadgen,
      count: Number(process.argv[3] ?? 5),
      size: Number(process.argv[4] ?? 100) * MB,
      // Absent: the whole file in one PATCH (Infinity would not cross the IPC as a number).
      chunkSize: process.argv[5] ? Number(process.argv[5]) * MB : undefined,
      profilePath: path.join(tmp, 'phase.cpuprofile'),
    });
  else if (what === 'school')
    await profileSchool({
      app,
      q,
      dbName,
      loadgen,
      seconds,
      rate: Number(process.argv[4] ?? 40),
      profilePath: path.join(tmp, 'phase.cpuprofile'),
      kinds: process.env.PROFILE_KINDS?.split(',').map((k) => k.trim()),
    });
  else {
    const teachers = await seedUsers(q, 'teacher', 5, 'P Teacher');
    const courses = await seedCourses(q, teachers);
    const assignments = await seedAssignments(q, courses, 10);
    const students = await seedUsers(
      q,
      'student',
      what === 'fanout' || what === 's3' ? 5000 : 2000,
      'P Student',
    );
    await seedMembers(q, everyoneIn(students, courses));
    const auth = { authorization: `Bearer ${students[0].token}` };
    if (what === 'health' || what === 'assignments') {
      const url = `${app.url}/api/${what}`;
      await loadgen.call('autocannon', { url, headers: auth, connections: 20, duration: 2 }); // warm-up
      console.log(
        await loadgen.call('autocannon', { url, headers: auth, connections: 20, duration: seconds }),
      );
    } else if (what === 'submit') {
      const rate = 150;
      const requests = Array.from(
        { length: Math.min(rate * seconds, students.length * assignments.length) },
        (_, i) => ({
          url: `${app.url}/api/assignments/${assignments[Math.floor(i / students.length)].id}/submissions`,
          method: 'POST',
          headers: { authorization: `Bearer ${students[i % students.length].token}` },
          body: { content: `Answer ${keyMark(nextKey())}` },
          status: 201,
        }),
      );
      const r = await loadgen.call('run', { requests, rate, drainMs: 500 });
      console.log({ http: r.http, errors: r.httpErrors });
    } else if (what === 'connect') {
      const specs = students.map((s) => ({ id: `p:${s.id}`, auth: { token: s.token } }));
      console.log(await loadgen.call('connect', { url: app.url, specs, rate: 500 }));
      await loadgen.call('disconnect', {});
    } else if (what === 'fanout' || what === 's3') {
      const connected = what === 's3' ? students.slice(0, 1000) : students;
      const specs = connected.map((s) => ({ id: `p:${s.id}`, auth: { token: s.token } }));
      await loadgen.call('connect', { url: app.url, specs });
      const requests = Array.from({ length: seconds * 4 }, () => {
        const key = nextKey();
        return {
          url: `${app.url}/api/assignments`,
          method: 'POST',
          headers: { authorization: `Bearer ${teachers[0].token}` },
          body: {
            title: `Quiz ${keyMark(key)}`,
            dueDate: new Date(Date.now() + 7 * 86_400_000).toISOString(), // as S3: no reminder yet
            courseId: courses[0].id,
          },
          status: 201,
          key,
          expect: specs.map((s) => s.id),
        };
      });
      if (what === 's3') await probe(app, 'cpu:start');
      const r = await loadgen.call('run', { requests, sequential: true, gapMs: 50, drainMs: 1000 });
      if (what === 's3') await probe(app, 'cpu:stop', { path: path.join(tmp, 'phase.cpuprofile') });
      console.log({ events: r.eventsAll, lost: r.lost });
      await loadgen.call('disconnect', {});
    } else if (what === 'posts') {
      await seedCoTeachers(q, courses[0], teachers.slice(1));
      const specs = students.slice(0, 30).map((s) => ({ id: `p:${s.id}`, auth: { token: s.token } }));
      await loadgen.call('connect', { url: app.url, specs });
      // 20 posts an account in 10 minutes (POST_RATE): five teachers, at most 4 posts a second for `seconds`.
      const requests = Array.from({ length: Math.min(seconds * 4, 100) }, (_, i) => {
        const key = nextKey();
        return {
          url: `${app.url}/api/courses/${courses[0].id}/posts`,
          method: 'POST',
          headers: { authorization: `Bearer ${teachers[i % teachers.length].token}` },
          body: { text: `Bring your atlas on Monday. ${keyMark(key)}` },
          status: 201,
          key,
          expect: specs.map((s) => s.id),
        };
      });
      await probe(app, 'cpu:start');
      const r = await loadgen.call('run', { requests, sequential: true, gapMs: 50, drainMs: 1000 });
      await probe(app, 'cpu:stop', { path: path.join(tmp, 'phase.cpuprofile') });
      console.log({ http: r.http, events: r.eventsAll, lost: r.lost });
      await loadgen.call('disconnect', {});
    } else throw new Error(`unknown load ${what}`);
  }
  await app.stop(15_000);
} finally {
  await cleanups.run();
}

const file =
  readdirSync(tmp).find((f) => f === 'phase.cpuprofile') ??
  readdirSync(tmp).find((f) => f.endsWith('.cpuprofile'));
const kept = path.join(BENCH, `results/profiles/${what}.cpuprofile`);
renameSync(path.join(tmp, file), kept);
rmSync(tmp, { recursive: true, force: true });
summarise(JSON.parse(readFileSync(kept, 'utf8')));
console.log(`\nprofile: ${path.relative(process.cwd(), kept)}`);

/** S10's uploads one after another, the profiler on for them alone; each removed after it. */
async function profileUploads({ app, q, loadgen, count, size, chunkSize, profilePath }) {
  const [teacher] = await seedUsers(q, 'teacher', 1, 'P Teacher');
  const [course] = await seedCourses(q, [teacher]);
  const [student] = await seedUsers(q, 'student', 1, 'P Student');
  await seedMembers(q, [[student.id, course.id]]);
  const [work] = await seedAssignments(q, [course], 1);
  const one = async (name) => {
    const [r] = await loadgen.call('uploads', {
      origin: app.url,
      uploads: [
        {
          token: student.token,
          meta: { purpose: 'submission', targetId: work.id, name },
          size,
          ...(chunkSize ? { chunkSize } : {}),
        },
      ],
    });
    if (r.status !== 204) throw new Error(`upload: ${r.status} ${r.error}`);
    await loadgen.call('fetch', {
      url: `${app.url}/api/files/${r.id}`,
      method: 'DELETE',
      headers: { authorization: `Bearer ${student.token}` },
    });
    return r.ms;
  };
  for (let i = 0; i < 2; i++) await one(`warm-up-${i}.bin`);
  await probe(app, 'cpu:start');
  for (let i = 0; i < count; i++) {
    const ms = await one(`profiled-${i}.bin`);
    console.log(
      `upload ${i + 1}: ${size / MB} MB in ${ms.toFixed(0)} ms, ${(size / MB / (ms / 1000)).toFixed(0)} MB/s`,
    );
  }
  await probe(app, 'cpu:stop', { path: profilePath });
}

function summarise(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  let total = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    // Percentages are of the time the thread was busy: idle time says nothing of where CPU goes.
    // So is the profiler's own stop (node:inspector), the last sample of a phase profiled by the probe.
    const cf = byId.get(id).callFrame;
    if (['(idle)', '(program)'].includes(cf.functionName) || cf.url === 'node:inspector')
      return void (idle += dt);
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const where = (cf) => cf.url.replace(/.*node_modules\//, '').replace(/.*\/server\/dist\//, 'server/');
  const fns = new Map();
  const pkgs = new Map();
  const leaves = new Map();
  for (const [id, t] of self) {
    const cf = byId.get(id).callFrame;
    // Self time by the package (or app module, or native code) it was spent in.
    const leaf =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(cf.url)?.[1] ??
      /server\/dist\/([^/]+)/.exec(cf.url)?.[1] ??
      (/shared\/dist/.test(cf.url)
        ? 'shared'
        : cf.url.startsWith('node:')
          ? 'node (JS)'
          : cf.url || 'native');
    leaves.set(leaf, (leaves.get(leaf) ?? 0) + t);
    const k = `${cf.functionName || '(anonymous)'} ${where(cf)}:${cf.lineNumber + 1}`;
    fns.set(k, (fns.get(k) ?? 0) + t);
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const u = byId.get(cur).callFrame.url;
      const m =
        /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u) ?? /server\/dist\/(.+?)(?:\/[^/]+)?\.js$/.exec(u);
      const key = m ? m[1] : null;
      if (key && !seen.has(key)) {
        seen.add(key);
        pkgs.set(key, (pkgs.get(key) ?? 0) + t);
      }
    }
  }
  const pct = (t) => `${((100 * t) / total).toFixed(1).padStart(5)} %`;
  console.log(
    `\nsampled ${((total + idle) / 1e6).toFixed(1)} s, busy ${(total / 1e6).toFixed(2)} s (percentages are of busy time)\n\nself time, top 25:`,
  );
  for (const [k, t] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${pct(t)}  ${k}`);
  console.log('\nself time by package, app module or native code, top 15:');
  for (const [k, t] of [...leaves].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${pct(t)}  ${k}`);
  console.log('\ninclusive time by package or app module, top 20:');
  for (const [k, t] of [...pkgs].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${pct(t)}  ${k}`);
}
