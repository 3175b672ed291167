#!/usr/bin/env node
// `node bench/micro.mjs [pglite|postgres] [path] [requests] [server build dir, default server/dist]`: the app's own CPU per request, in one
// process, without sockets: the built app (server/dist) answers `app.inject` one request at a time
// and process.cpuUsage() is read around a batch. On a busy shared machine, where the closed-loop S1
// figures swing with whatever else runs, this isolates what a change does to the app's CPU
// (the database's CPU is included on PGlite, not on PostgreSQL). Seeds the S1 data set: a student
// in 5 courses of 10 assignments each.
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  JWT_SECRET,
  createDatabase,
  dropDatabase,
  everyoneIn,
  pgUrl,
  seedAssignments,
  seedCourses,
  seedMembers,
  seedUsers,
} from './lib/db.mjs';

const kind = process.argv[2] ?? 'pglite';
const path = process.argv[3] ?? '/api/assignments';
const requests = Number(process.argv[4] ?? 2000);
const dist = pathToFileURL(`${resolve(process.argv[5] ?? 'server/dist')}/`);
const { buildApp } = await import(new URL('app.js', dist));
const { loadConfig } = await import(new URL('config.js', dist));
const { openDatabase } = await import(new URL('db/client.js', dist));
const dbName = `bench_micro_${randomUUID().slice(0, 8)}`;
if (kind === 'postgres') await createDatabase(dbName);
try {
  const database = await openDatabase(kind === 'postgres' ? { url: pgUrl(dbName) } : {});
  await database.migrate();
  const config = loadConfig(
    { NODE_ENV: 'production', LOG_LEVEL: 'silent', TEACHER_SIGNUP: 'open', DATA_DIR: '/tmp/classwave-micro' },
    { jwtSecret: JWT_SECRET },
  );
  const app = await buildApp(config, { database, skipMigrations: true });
  await app.ready();
  const q = async (text, params) => (await database.db.$client.query(text, params)).rows;
  const teachers = await seedUsers(q, 'teacher', 5, 'M Teacher');
  const courses = await seedCourses(q, teachers);
  await seedAssignments(q, courses, 10);
  const [student] = await seedUsers(q, 'student', 1, 'M Student');
  await seedMembers(q, everyoneIn([student], courses));
  const headers = { authorization: `Bearer ${student.token}` };
  const first = await app.inject({ url: path, headers });
  if (first.statusCode !== 200) throw new Error(`${path}: ${first.statusCode} ${first.body}`);
  const batch = async (n) => {
    const t0 = process.cpuUsage();
    for (let i = 0; i < n; i++) await app.inject({ url: path, headers });
    const t = process.cpuUsage(t0);
    return (t.user + t.system) / n;
  };
  await batch(Math.min(500, requests)); // warm-up
  const rounds = [];
  for (let r = 0; r < 5; r++) rounds.push(await batch(Math.ceil(requests / 5)));
  rounds.sort((a, b) => a - b);
  console.log(
    `${process.argv[5] ?? 'server/dist'} ${kind} ${path}: ${rounds[2].toFixed(0)} µs CPU per request (median of 5; ${rounds.map((x) => x.toFixed(0)).join(' ')}), ${first.body.length} B`,
  );
  await app.close();
  await database.close().catch(() => {});
} finally {
  if (kind === 'postgres') await dropDatabase(dbName);
}
