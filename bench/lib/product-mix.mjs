// The product mix, shared by S8 (scenarios/s8-product.mjs) and the soak (soak.mjs): the users,
// courses, assignments and submissions it needs, the sockets of every user, and the request
// generator. Active users send, open loop, in these shares:
//   students: GET /api/assignments 30 %, GET /api/dashboard 15 %, GET /api/courses 10 %,
//             GET /api/events 6 %, POST a submission 15 % (event to the student and the teacher)
//   teachers: GET an assignment's submissions 12 %, PATCH a grade 12 % (event to both),
//             and one new assignment every 5 s of load (event to every student and the teacher).
// Each active teacher's course holds one assignment (the students' assignment list starts with one
// item per active teacher), with up to 40 submissions from students who are not active, to grade.
import { everyoneIn, seedAssignments, seedCourses, seedMembers, seedSubmissions, seedUsers } from './db.mjs';
import { keyMark, nextKey } from './scenario.mjs';

/**
 * Seeds the product's data: `teachers` teachers with one course each, `students` students, one
 * assignment on each of the first `activeTeachers` courses, and its submissions to grade.
 */
export async function seedProduct(q, { teachers, students, activeTeachers, activeStudents, name }) {
  const teacherUsers = await seedUsers(q, 'teacher', teachers, `${name} Teacher`);
  const courses = await seedCourses(q, teacherUsers);
  const assignments = await seedAssignments(q, courses.slice(0, activeTeachers), 1);
  const studentUsers = await seedUsers(q, 'student', students, `${name} Student`);
  await seedMembers(q, everyoneIn(studentUsers, courses));
  // Up to 40 submissions on each assignment, from students who are not active (no submit collides).
  const idle = studentUsers.slice(activeStudents);
  const per = Math.min(40, Math.floor(idle.length / activeTeachers));
  if (per < 1) throw new Error(`product mix: too few idle students to seed submissions to grade`);
  const seeded = await seedSubmissions(
    q,
    assignments.flatMap((a, i) => idle.slice(i * per, i * per + per).map((s) => [s.id, a.id])),
  );
  const byAssignment = new Map(assignments.map((a) => [a.id, seeded.filter((s) => s.assignmentId === a.id)]));
  return {
    teachers: teacherUsers,
    students: studentUsers,
    courses,
    assignments,
    byAssignment,
    activeTeachers,
    activeStudents,
  };
}

/**
 * The load generator's socket specs for every user (`<prefix>:<user id>`): light clients, except two
 * teachers and three students on socket.io-client, whose events are checked in full.
 */
export function productSockets(data, prefix) {
  const T = data.teachers.length;
  return [...data.teachers, ...data.students].map((u, i) => ({
    id: `${prefix}:${u.id}`,
    auth: { token: u.token },
    label: i < T ? 'teacher' : 'student',
    real: i < 2 || (i >= T && i < T + 3),
  }));
}

/**
 * A 32-bit generator (mulberry32) of numbers in [0, 1) with a period of 2^32, for long runs. S8's own
 * generator (the default below, kept so its runs send what they always sent) computes its product
 * in floating point, loses the low bits and repeats itself after about 16,000 draws: over a soak the
 * same students would pick the same assignments until every submission was refused by the mix.
 */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * The request generator: `next()` returns the next request spec for the load generator's `run`
 * (one new assignment every `rate * 5` requests, i.e. every 5 s at `rate`). Deterministic: the same
 * data, rate, `random` and call order give the same requests.
 */
export function productMix(data, { url, rate: initialRate, prefix, random: customRandom }) {
  let rate = initialRate;
  const { teachers, students, courses, assignments, byAssignment, activeTeachers } = data;
  const allStudents = students.map((s) => `${prefix}:${s.id}`);
  const activeStudents = students.slice(0, data.activeStudents);
  const submitted = new Set(); // `${student}:${assignment}`
  const turns = []; // each teacher's last graded submission
  let counter = 0;
  let rng = 12345;
  const random = customRandom ?? (() => (rng = (rng * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const auth = (u) => ({ authorization: `Bearer ${u.token}` });

  const oneRequest = (i) => {
    // One new assignment every 5 s, to every student.
    if (i % (rate * 5) === rate * 5 - 1) {
      const t = Math.floor(random() * activeTeachers);
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
        expect: [...allStudents, `${prefix}:${teachers[t].id}`],
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
          expect: [`${prefix}:${s.id}`, `${prefix}:${teachers[a].id}`],
          check: { studentId: s.id },
        };
      }
      return { url: `${url}/api/assignments`, headers: auth(s), label: 'GET assignments' };
    }
    const t = Math.floor(random() * activeTeachers);
    if (r < 0.88)
      return {
        url: `${url}/api/assignments/${assignments[t].id}/submissions`,
        headers: auth(teachers[t]),
        label: 'GET submissions',
      };
    // Each teacher grades their submissions in turn, round after round, so two writes to one
    // submission are a whole round apart and cannot overtake each other. (Picked at random, two
    // writes to one submission could be sent a few milliseconds apart; a loaded server, or two
    // workers, may finish them in either order, and the later one is then a correct 409
    // grade_conflict that the soak counted as an error.)
    const list = byAssignment.get(assignments[t].id);
    const sub = list[(turns[t] = ((turns[t] ?? -1) + 1) % list.length)];
    const key = nextKey();
    // Grade writes name the version they start from (DESIGN §13): the mix writes each submission's
    // grades in order from version 0, one more per write it sends (a failed write leaves later ones
    // stale: they are then 409 grade_conflict).
    const baseVersion = sub.gradeVersion ?? 0;
    sub.gradeVersion = baseVersion + 1;
    return {
      url: `${url}/api/submissions/${sub.id}`,
      method: 'PATCH',
      headers: auth(teachers[t]),
      label: 'PATCH grade',
      key,
      type: 'submission:graded',
      body: { grade: Math.floor(random() * 100), feedback: `Well done ${keyMark(key)}`, baseVersion },
      expect: [`${prefix}:${sub.studentId}`, `${prefix}:${teachers[t].id}`],
      check: { id: sub.id },
    };
  };

  return {
    /** The next request spec. */
    next: () => oneRequest(counter++),
    /** `n` request specs. */
    take: (n) => Array.from({ length: n }, () => oneRequest(counter++)),
    /**
     * Changes the rate the requests will be sent at (S9 steps it up on one database): the new
     * assignment stays one every 5 s, and the students' submissions continue without repeats.
     */
    setRate: (r) => (rate = r),
    /** The labels of the requests it sends, in the report's order. */
    labels: [
      'GET assignments',
      'GET dashboard',
      'GET courses',
      'GET events',
      'POST submission',
      'GET submissions',
      'PATCH grade',
      'POST assignment',
    ],
  };
}
