// Databases for the app under test: a fresh PostgreSQL database per scenario (dropped after), or a
// PGlite data directory; users, sessions, courses and assignments inserted directly (sign-up is
// rate limited), and access tokens signed with the JWT secret given to the app.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { LOAD_CORE, ROOT, onExitSync } from './procs.mjs';

export const PG_ADMIN = process.env.BENCH_PG_ADMIN ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const JWT_SECRET = randomBytes(32).toString('base64url');
const TOKEN_TTL_S = 6 * 3600;

export const pgUrl = (name) => {
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return url.toString();
};

const live = new Set();
// Interrupted runs drop their databases too (the asynchronous clean-up never runs then).
onExitSync(() => {
  for (const name of live)
    spawnSync('psql', [PG_ADMIN, '-qc', `drop database if exists ${name} with (force)`], {
      stdio: 'ignore',
      timeout: 10_000,
    });
});

export async function createDatabase(name) {
  live.add(name);
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
}

export async function dropDatabase(name) {
  live.delete(name);
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect().catch(() => {});
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
  } catch {
    /* best effort */
  } finally {
    await admin.end().catch(() => {});
  }
}

/** A query function over a PostgreSQL server: q(sql, params) -> rows. */
export async function pgQuery(name) {
  const client = new pg.Client({ connectionString: pgUrl(name) });
  await client.connect();
  const q = async (sql, params) => (await client.query(sql, params)).rows;
  q.close = () => client.end();
  return q;
}

/** The same over a PGlite data directory (the app must not be running on it). */
export async function pgliteQuery(dataDir) {
  const { PGlite } = await import(path.join(ROOT, 'node_modules/@electric-sql/pglite/dist/index.js'));
  const db = new PGlite(path.join(dataDir, 'pglite'));
  await db.waitReady;
  const q = async (sql, params) => (await db.query(sql, params)).rows;
  q.close = () => db.close();
  return q;
}

const b64 = (value) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** An access token exactly as server/src/auth/tokens.ts signs it (HS256, aud classwave). */
export function accessToken(userId, sessionId) {
  const iat = Math.floor(Date.now() / 1000);
  const body = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: userId, sid: sessionId, iat, exp: iat + TOKEN_TTL_S, aud: 'classwave' })}`;
  return `${body}.${createHmac('sha256', JWT_SECRET).update(body).digest('base64url')}`;
}

let passwordHash;
async function benchPasswordHash() {
  if (!passwordHash) {
    const { hash } = await import(path.join(ROOT, 'node_modules/@node-rs/argon2/index.js'));
    passwordHash = await hash('bench-password-not-used', {
      algorithm: 2,
      memoryCost: 19_456,
      timeCost: 2,
      parallelism: 1,
    });
  }
  return passwordHash;
}

/** Inserts `rows` (arrays in the order of `columns`) in multi-row statements of `chunk` rows. */
export async function insertRows(q, table, columns, rows, chunk = 1000) {
  for (let i = 0; i < rows.length; i += chunk) {
    const part = rows.slice(i, i + chunk);
    const params = [];
    const values = part.map((row) => `(${row.map((v) => (params.push(v), `$${params.length}`)).join(',')})`);
    await q(`insert into ${table} (${columns.join(',')}) values ${values.join(',')}`, params);
  }
}

/** Users with a profile and one live session each; returns [{ id, sid, token, role, name }]. */
export async function seedUsers(q, role, count, prefix) {
  const hash = await benchPasswordHash();
  const users = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    sid: randomUUID(),
    role,
    name: `${prefix} ${i + 1}`,
    email: `${prefix.toLowerCase().replace(/\W+/g, '-')}-${i + 1}-${randomUUID().slice(0, 8)}@bench.test`,
  }));
  const now = new Date();
  await insertRows(
    q,
    'users',
    ['id', 'email', 'password_hash', 'email_confirmed_at'],
    users.map((u) => [u.id, u.email, hash, now]),
  );
  await insertRows(
    q,
    'profiles',
    ['id', 'full_name', 'role'],
    users.map((u) => [u.id, u.name, role]),
  );
  await insertRows(
    q,
    'sessions',
    ['id', 'user_id'],
    users.map((u) => [u.sid, u.id]),
  );
  for (const u of users) u.token = accessToken(u.id, u.sid);
  return users;
}

const JOIN_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** A join code of the app's form (8 characters of its alphabet); random enough not to collide here. */
const joinCode = () =>
  Array.from(randomBytes(8), (b) => JOIN_CODE_ALPHABET[b % JOIN_CODE_ALPHABET.length]).join('');

/** One course per teacher (or `perTeacher`); returns [{ id, teacherId, title }]. */
export async function seedCourses(q, teachers, perTeacher = 1) {
  const courses = teachers.flatMap((t, i) =>
    Array.from({ length: perTeacher }, (_, j) => ({
      id: randomUUID(),
      teacherId: t.id,
      title: `Course ${i + 1}.${j + 1}`,
    })),
  );
  await insertRows(
    q,
    'courses',
    ['id', 'title', 'description', 'code', 'teacher_id', 'join_code'],
    courses.map((c, i) => [
      c.id,
      c.title,
      'A course seeded by the benchmark.',
      `B${i}`,
      c.teacherId,
      joinCode(),
    ]),
  );
  return courses;
}

/**
 * Active memberships, [studentId, courseId] pairs (a student sees a course's assignments and events
 * only as a member, DESIGN §11).
 */
export async function seedMembers(q, pairs) {
  await insertRows(
    q,
    'course_members',
    ['student_id', 'course_id', 'status'],
    pairs.map(([studentId, courseId]) => [studentId, courseId, 'active']),
  );
}

/** Co-teachers of `course` (DESIGN §20: they post, grade and read as its owner does; at most 20). */
export async function seedCoTeachers(q, course, teachers) {
  await insertRows(
    q,
    'course_teachers',
    ['course_id', 'teacher_id', 'invited_by'],
    teachers.map((t) => [course.id, t.id, course.teacherId]),
  );
}

/**
 * Every student in every course: before classes every student saw everything, so the scenarios
 * that relied on that keep their lists and audiences as they were.
 */
export const everyoneIn = (students, courses) => courses.flatMap((c) => students.map((s) => [s.id, c.id]));

/** `perCourse` assignments on each course, due over the coming weeks; returns [{ id, courseId }]. */
export async function seedAssignments(q, courses, perCourse) {
  const now = Date.now();
  const rows = courses.flatMap((c) =>
    Array.from({ length: perCourse }, (_, j) => ({
      id: randomUUID(),
      courseId: c.id,
      title: `Assignment ${j + 1} of ${c.title}`,
      due: new Date(now + (j + 1) * 86_400_000),
    })),
  );
  await insertRows(
    q,
    'assignments',
    ['id', 'title', 'description', 'due_date', 'max_points', 'course_id'],
    rows.map((a) => [
      a.id,
      a.title,
      'Write about evaporation, condensation and precipitation.',
      a.due,
      100,
      a.courseId,
    ]),
  );
  return rows;
}

/** Submissions (student, assignment) pairs; returns [{ id, studentId, assignmentId }]. */
export async function seedSubmissions(q, pairs) {
  const rows = pairs.map(([studentId, assignmentId]) => ({ id: randomUUID(), studentId, assignmentId }));
  await insertRows(
    q,
    'submissions',
    ['id', 'assignment_id', 'student_id', 'content'],
    rows.map((r) => [r.id, r.assignmentId, r.studentId, 'A seeded answer.']),
  );
  return rows;
}

/**
 * Where the app's PostgreSQL backends run: on the load core by default (the database stands for a
 * server elsewhere, so the app core runs only the app), or with the app (BENCH_DB_CORE=0).
 */
export const DB_CORE = Number(process.env.BENCH_DB_CORE ?? LOAD_CORE);

/**
 * Pins the server backends of database `name` (the app's pool) to DB_CORE; returns their pids,
 * whose CPU is reported as the app's database time.
 */
export async function pinBackends(q, name, core = DB_CORE) {
  const rows = await q('select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [
    name,
  ]);
  const pids = rows.map((r) => Number(r.pid));
  for (const pid of pids) spawnSync('taskset', ['-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
  return pids;
}
