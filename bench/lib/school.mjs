// The school (issue 30, DESIGN §22): the data a school's database holds half-way through a term, and
// S8's request mix over it. The old product mix (product-mix.mjs) put every student in every course,
// so each new assignment went to 5,000 students; in a school a class is about 28.
//
// Shape (full): 5,000 students and 200 teachers; 1,250 classes of 28 (each student in 7, each
// teacher has 6 or 7); 30 assignments a class, one every 3.5 days, 15 of them past due. As the app
// would have written them: memberships, grade categories, submissions (90 % of the past work, the
// two most recent past assignments still to grade, a few on the next two) with their history rows,
// grades returned, a few grades for missing work and excusals, drafts, every user's notification
// settings and refresh token, the inbox (a new-assignment entry per member, due-soon reminders,
// grades returned, the teacher's submission batches and "closed" notices), the jobs table (pending
// reminders of every upcoming assignment, a week of done jobs) and a day of the outbox's events.
// Everything is inserted in bulk (INSERT … SELECT in the database), then VACUUM ANALYZE, as a
// database that has lived for a term would have its statistics and visibility maps.
//
// The mix (`schoolMix`) sends S8's shares, each request within the sender's own classes:
//   students: GET /api/assignments 30 %, GET /api/dashboard 15 %, GET /api/courses 10 %,
//             GET /api/events 6 % (a tab catching up on the last 200 events), POST a submission
//             15 % (an upcoming assignment of one of their 7 classes; event to them and the teacher)
//   teachers: GET a recent assignment's submissions 12 %, PATCH a grade 12 % (the work still to
//             grade in their classes, in turn; event to the student and the teacher), and one new
//             assignment every 5 s of load in one of their classes (event to its ~28 members and them).
import { insertRows, seedMembers, seedUsers } from './db.mjs';
import { mulberry32 } from './product-mix.mjs';
import { keyMark, nextKey } from './scenario.mjs';

/** The school of DESIGN §22; `quick` is a twentieth of it with the same classes (CI). */
export const SCHOOL = {
  students: 5000,
  teachers: 200,
  classSize: 28,
  classesPerStudent: 7,
  assignmentsPerClass: 30,
  pastPerClass: 15,
  activeStudents: 950,
  activeTeachers: 50,
};
export const QUICK_SCHOOL = { ...SCHOOL, students: 250, teachers: 10, activeStudents: 48, activeTeachers: 3 };

const SUBJECTS = ['Mathematics', 'English', 'Biology', 'History', 'Chemistry', 'Geography', 'Art'];
const SPACING_DAYS = 3.5;

/**
 * Seeds the school into the app's (migrated, empty) database; returns the users, classes and
 * work the mix needs, and the row counts.
 */
export async function seedSchool(q, shape, { name = 'School', log = () => {} } = {}) {
  const t0 = Date.now();
  const random = mulberry32(30);
  const { classSize, classesPerStudent, assignmentsPerClass: perClass, pastPerClass: past } = shape;
  const teachers = await seedUsers(q, 'teacher', shape.teachers, `${name} Teacher`);
  const students = await seedUsers(q, 'student', shape.students, `${name} Student`);

  // Classes: each student in `classesPerStudent` distinct classes of about `classSize`, each class
  // a run of a shuffled roll (one shuffle per period), so classmates differ from class to class.
  const nClasses = Math.round((shape.students * classesPerStudent) / classSize);
  const members = Array.from({ length: nClasses }, () => new Set());
  for (let period = 0; period < classesPerStudent; period++) {
    const roll = students.map((_, i) => i);
    for (let i = roll.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [roll[i], roll[j]] = [roll[j], roll[i]];
    }
    // A class that straddles two periods could get a student twice: the second is left out (27).
    roll.forEach((s, p) => members[Math.floor((period * shape.students + p) / classSize) % nClasses].add(s));
  }
  const classes = members.map((set, c) => ({
    id: crypto.randomUUID(),
    teacher: c % shape.teachers,
    members: [...set],
    title: `${SUBJECTS[c % SUBJECTS.length]} ${Math.floor(c / SUBJECTS.length) + 1}`,
  }));
  await insertRows(
    q,
    'courses',
    ['id', 'title', 'description', 'code', 'teacher_id', 'join_code', 'created_at'],
    classes.map((c, i) => [
      c.id,
      c.title,
      `${c.title}: the class's work for the term.`,
      `S${i}`,
      teachers[c.teacher].id,
      joinCode(i),
      new Date(Date.now() - 120 * 86_400_000),
    ]),
  );
  await seedMembers(
    q,
    classes.flatMap((c) => c.members.map((s) => [students[s].id, c.id])),
  );
  const ids = classes.map((c) => c.id);
  const sql = (text, params) => q(text, params);
  // Grade categories (DESIGN §17): three a class, assignments in turn.
  await sql(
    `insert into grade_categories (course_id, name, weight, position)
     select c, v.name, v.weight, v.position from unnest($1::uuid[]) c
     cross join (values ('Homework', 50, 0), ('Quizzes', 30, 1), ('Projects', 20, 2)) v(name, weight, position)`,
    [ids],
  );
  // Assignments: number j of a class is due (j − past − 0.5) × 3.5 days from now, give or take a
  // few hours per class, and was made a week before; j ≤ past is past due.
  await sql(
    `create temp table school_work (id uuid, course_id uuid, teacher_id uuid, course_title text, j int, due_date timestamptz)`,
  );
  await sql(
    `insert into school_work
     select gen_random_uuid(), c.id, c.teacher_id, c.title, j,
       now() + (((j - $2::int) * ${SPACING_DAYS} - 1.5 + (c0.ord % 4) * 0.25) * interval '1 day')
     from unnest($1::uuid[]) with ordinality c0(id, ord)
     join courses c on c.id = c0.id
     cross join generate_series(1, $3::int) j`,
    [ids, past, perClass],
  );
  await sql(
    `insert into assignments (id, title, description, due_date, max_points, course_id, created_at, category_id)
     select w.id, 'Assignment ' || w.j || ': ' || w.course_title, 'Read the chapter, then answer the questions in your own words.',
       w.due_date, 100, w.course_id, w.due_date - interval '7 days',
       (select g.id from grade_categories g where g.course_id = w.course_id and g.position = w.j % 3)
     from school_work w`,
  );
  // Submissions, one draw per student and assignment (h): 90 % of past work handed in, all but the
  // two most recent past assignments graded and returned; 5 % of the past work missing with a 0;
  // 40 % and 10 % of the next two already handed in. The mix submits to the later ones.
  const pair = `abs(hashtext(w.id::text || m.student_id::text)) % 1000`;
  await sql(
    `insert into submissions (assignment_id, student_id, content, submitted_at, grade, feedback, graded_at,
       version, returned_at, returned_grade, returned_feedback, returned_graded_at, graded_by)
     select w.id, m.student_id, 'My answer: evaporation, condensation and precipitation, in that order.',
       case when w.j <= $1 then w.due_date - (h % 96) * interval '1 hour' else now() - (h % 48) * interval '1 hour' end,
       g.grade, g.feedback, g.at, case when g.grade is null then 0 else 1 end, g.at, g.grade, g.feedback, g.at,
       case when g.grade is null then null else w.teacher_id end
     from school_work w
     join course_members m on m.course_id = w.course_id
     cross join lateral (select ${pair} as h) x
     cross join lateral (select case when w.j <= $1 - 2 then 60 + h % 41 end as grade,
       case when w.j <= $1 - 2 then 'Good work; see my notes.' end as feedback,
       case when w.j <= $1 - 2 then w.due_date + interval '2 days' end as at) g
     where (w.j <= $1 and h < 900) or (w.j = $1 + 1 and h < 400) or (w.j = $1 + 2 and h < 100)`,
    [past],
  );
  await sql(
    `insert into submissions (assignment_id, student_id, content, submitted_at, grade, graded_at, version,
       returned_at, returned_grade, returned_graded_at, graded_by)
     select w.id, m.student_id, null, null, 0, w.due_date + interval '2 days', 1,
       w.due_date + interval '2 days', 0, w.due_date + interval '2 days', w.teacher_id
     from school_work w join course_members m on m.course_id = w.course_id
     where w.j <= $1 - 2 and ${pair} >= 950`,
    [past],
  );
  await sql(
    `insert into excusals (assignment_id, student_id, created_at)
     select w.id, m.student_id, w.due_date from school_work w join course_members m on m.course_id = w.course_id
     where w.j <= $1 and ${pair} between 900 and 909`,
    [past],
  );
  await sql(
    `insert into submission_events (assignment_id, student_id, submission_id, kind, at)
     select assignment_id, student_id, id, 'submitted', submitted_at from submissions where submitted_at is not null`,
  );
  await sql(
    `insert into submission_drafts (assignment_id, student_id, content, version, updated_at)
     select w.id, m.student_id, 'First thoughts…', 1 + ${pair} % 5, now() - (${pair} % 30) * interval '1 hour'
     from school_work w join course_members m on m.course_id = w.course_id
     where w.j in ($1 + 1, $1 + 2) and ${pair} between 400 and 599`,
    [past],
  );
  // Every user's settings (their browser's zone, reported at sign-in), a few with quiet hours or
  // e-mail; a refresh token for each session.
  await sql(
    `insert into notification_settings (user_id, time_zone, quiet_enabled, email)
     select p.id, case when abs(hashtext(p.id::text)) % 20 = 0 then 'America/New_York' else 'Europe/London' end,
       abs(hashtext(p.id::text)) % 5 = 0, p.role = 'teacher' and abs(hashtext(p.id::text)) % 10 = 0
     from profiles p`,
  );
  await sql(
    `insert into refresh_tokens (token_hash, session_id, user_id, expires_at)
     select md5(s.id::text || random()::text), s.id, s.user_id, now() + interval '30 days' from sessions s`,
  );
  await sql(
    `insert into assignment_revisions (assignment_id, sequence)
     select id, 1 from school_work where abs(hashtext(id::text)) % 20 = 0`,
  );
  // The inbox (kept 90 days, all of the term so far): read once a few days old.
  const readAt = (at) => `case when ${at} < now() - interval '3 days' then ${at} + interval '1 day' end`;
  await sql(
    `insert into notifications (user_id, kind, title, body, link, course_id, assignment_id, created_at, updated_at, read_at)
     select m.student_id, 'assignment_created', 'New assignment in ' || w.course_title || ': Assignment ' || w.j,
       'Due ' || to_char(w.due_date, 'Mon DD, HH12:MI AM'), '/assignments?open=' || w.id, w.course_id, w.id,
       w.due_date - interval '7 days', w.due_date - interval '7 days', ${readAt(`w.due_date - interval '7 days'`)}
     from school_work w join course_members m on m.course_id = w.course_id
     where w.due_date - interval '7 days' < now()`,
  );
  await sql(
    `insert into notifications (user_id, kind, title, body, link, course_id, assignment_id, created_at, updated_at, read_at)
     select m.student_id, 'due_soon', 'Due soon in ' || w.course_title || ': Assignment ' || w.j,
       'Due ' || to_char(w.due_date, 'Mon DD, HH12:MI AM'), '/assignments?open=' || w.id, w.course_id, w.id,
       w.due_date - interval '1 day', w.due_date - interval '1 day', ${readAt(`w.due_date - interval '1 day'`)}
     from school_work w join course_members m on m.course_id = w.course_id
     left join submissions s on s.assignment_id = w.id and s.student_id = m.student_id
       and s.submitted_at < w.due_date - interval '1 day'
     where w.j <= $1 and s.id is null`,
    [past],
  );
  await sql(
    `insert into notifications (user_id, kind, title, body, link, course_id, assignment_id, created_at, updated_at, read_at)
     select s.student_id, 'grade_returned', 'Grade returned: Assignment ' || w.j,
       w.course_title || ' · ' || s.returned_grade || ' points out of 100', '/assignments?open=' || w.id,
       w.course_id, w.id, s.returned_at, s.returned_at, ${readAt('s.returned_at')}
     from submissions s join school_work w on w.id = s.assignment_id where s.returned_at is not null`,
  );
  await sql(
    `insert into notifications (user_id, kind, title, body, link, course_id, assignment_id, count, created_at, updated_at, read_at)
     select w.teacher_id, 'submissions', count(*) || ' new submissions: Assignment ' || w.j, 'Latest: a student',
       '/assignments?open=' || w.id, w.course_id, w.id, count(*), min(s.submitted_at), max(s.submitted_at),
       ${readAt('max(s.submitted_at)')}
     from submissions s join school_work w on w.id = s.assignment_id where s.submitted_at is not null
     group by w.id, w.teacher_id, w.j, w.course_id`,
  );
  await sql(
    `insert into notifications (user_id, kind, title, body, link, course_id, assignment_id, count, created_at, updated_at, read_at)
     select w.teacher_id, 'assignment_closed', 'Closed: Assignment ' || w.j, w.course_title || ': some students have not submitted',
       '/assignments?open=' || w.id, w.course_id, w.id, 3, w.due_date, w.due_date, ${readAt('w.due_date')}
     from school_work w where w.j <= $1`,
    [past],
  );
  // Jobs: every upcoming assignment's two reminders pending; done jobs are kept a week (the
  // retention job), so only the last week's reminders, inbox jobs and submission batches.
  await sql(
    `insert into jobs (kind, key, run_at, payload, done_at, created_at)
     select v.kind, v.prefix || w.id, v.run_at, jsonb_build_object('assignmentId', w.id),
       case when v.run_at < now() then v.run_at end, w.due_date - interval '7 days'
     from school_work w cross join lateral (values
       ('due_soon', 'due_soon:', w.due_date - interval '1 day'),
       ('assignment_closed', 'closed:', w.due_date),
       ('member_inbox', 'member_inbox:', w.due_date - interval '7 days' + interval '1 minute')) v(kind, prefix, run_at)
     where v.run_at > now() - interval '7 days' and (v.kind <> 'member_inbox' or v.run_at < now())`,
  );
  await sql(
    `insert into jobs (kind, key, run_at, payload, done_at, created_at)
     select 'submission_batch', 'submission_batch:' || s.id, s.submitted_at + interval '1 minute',
       jsonb_build_object('submissionId', s.id), s.submitted_at, s.submitted_at
     from submissions s where s.submitted_at > now() - interval '7 days'`,
  );
  // The outbox keeps a day of events: the day's submissions, each to the student and the teacher.
  await sql(
    `insert into events (type, audience, data, created_at)
     select 'submission:created', array['user:' || s.student_id, 'user:' || w.teacher_id],
       jsonb_build_object('id', s.id, 'assignmentId', s.assignment_id, 'studentId', s.student_id,
         'content', s.content, 'submittedAt', s.submitted_at, 'grade', null, 'feedback', null, 'version', 0),
       s.submitted_at
     from submissions s join school_work w on w.id = s.assignment_id
     where s.submitted_at > now() - interval '1 day'
     order by s.submitted_at`,
  );
  await sql('vacuum analyze');

  // What the mix needs: each class's recent past work (to read) and upcoming work (to submit to,
  // after the two that already have submissions), and the work still to grade of active teachers.
  const work = await sql(
    `select id, course_id, j from school_work where j between $1 - 2 and $1 or j > $1 + 2 order by course_id, j`,
    [past],
  );
  const classById = new Map(classes.map((c) => [c.id, c]));
  for (const c of classes) Object.assign(c, { recent: [], open: [] });
  for (const w of work) classById.get(w.course_id)[w.j <= past ? 'recent' : 'open'].push(w.id);
  const activeTeacherIds = teachers.slice(0, shape.activeTeachers).map((t) => t.id);
  const ungraded = await sql(
    `select s.id, s.student_id, w.teacher_id from submissions s join school_work w on w.id = s.assignment_id
     where w.j between $1 - 1 and $1 and s.grade is null and w.teacher_id = any($2::uuid[])
     order by w.j, s.id`,
    [past, activeTeacherIds],
  );
  const toGrade = new Map(activeTeacherIds.map((id) => [id, []]));
  for (const s of ungraded) toGrade.get(s.teacher_id).push({ id: s.id, studentId: s.student_id });
  const studentClasses = students.map(() => []);
  const teacherClasses = teachers.map(() => []);
  classes.forEach((c, i) => {
    teacherClasses[c.teacher].push(i);
    for (const s of c.members) studentClasses[s].push(i);
  });
  const counts = {};
  for (const table of [
    'course_members',
    'assignments',
    'submissions',
    'submission_events',
    'notifications',
    'jobs',
    'events',
  ])
    counts[table] = Number((await sql(`select count(*)::int as n from ${table}`))[0].n);
  await sql('drop table school_work');
  log(
    `  school seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${students.length} students, ${teachers.length} teachers, ${classes.length} classes; ${Object.entries(
      counts,
    )
      .map(([k, v]) => `${v} ${k}`)
      .join(', ')}`,
  );
  return {
    teachers,
    students,
    classes,
    studentClasses,
    teacherClasses,
    toGrade,
    activeTeachers: shape.activeTeachers,
    activeStudents: shape.activeStudents,
    counts,
  };
}

const JOIN_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** A join code of the app's form, unique per class number. */
function joinCode(i) {
  let n = i + 31 ** 5;
  let code = '';
  for (let k = 0; k < 8; k++) {
    code += JOIN_CODE_ALPHABET[n % 31];
    n = Math.floor(n / 31);
  }
  return code;
}

/** The load generator's socket specs for every user of the school (as productSockets). */
export function schoolSockets(data, prefix) {
  const T = data.teachers.length;
  return [...data.teachers, ...data.students].map((u, i) => ({
    id: `${prefix}:${u.id}`,
    auth: { token: u.token },
    label: i < T ? 'teacher' : 'student',
    real: i < 2 || (i >= T && i < T + 3),
  }));
}

/**
 * The request generator over the school (as productMix, with every request inside the sender's
 * classes). `setEventCursor(id)` sets where the tabs' catch-up reads start (the outbox's last id
 * before a run, less 200). Deterministic for the same data, rate and call order.
 */
export function schoolMix(data, { url, rate: initialRate, prefix }) {
  let rate = initialRate;
  let cursor = 0;
  const { teachers, students, classes, studentClasses, teacherClasses, toGrade } = data;
  const random = mulberry32(22);
  const activeStudents = data.activeStudents;
  const activeTeachers = data.activeTeachers;
  const submitted = new Set(); // `${studentIndex}:${assignmentId}`
  const turns = new Map(); // teacher id -> index of the last submission graded
  let counter = 0;
  const pick = (list) => list[Math.floor(random() * list.length)];
  const auth = (u) => ({ authorization: `Bearer ${u.token}` });
  const sock = (u) => `${prefix}:${u.id}`;

  const newAssignment = () => {
    const t = Math.floor(random() * activeTeachers);
    const c = classes[pick(teacherClasses[t])];
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
        courseId: c.id,
      },
      expect: [...c.members.map((s) => sock(students[s])), sock(teachers[t])],
    };
  };

  const submission = (si) => {
    const s = students[si];
    for (let tries = 0; tries < 10; tries++) {
      const c = classes[pick(studentClasses[si])];
      const a = pick(c.open);
      if (!a || submitted.has(`${si}:${a}`)) continue;
      submitted.add(`${si}:${a}`);
      const key = nextKey();
      return {
        url: `${url}/api/assignments/${a}/submissions`,
        method: 'POST',
        headers: auth(s),
        status: 201,
        label: 'POST submission',
        key,
        type: 'submission:created',
        body: { content: `Answer ${keyMark(key)}` },
        expect: [sock(s), sock(teachers[c.teacher])],
        check: { studentId: s.id },
      };
    }
    return { url: `${url}/api/assignments`, headers: auth(s), label: 'GET assignments' };
  };

  const grade = (t) => {
    const teacher = teachers[t];
    const list = toGrade.get(teacher.id);
    // Each teacher grades their work in turn, round after round, so two writes to one submission
    // are a whole round apart (as productMix); each names the version it starts from.
    const i = ((turns.get(teacher.id) ?? -1) + 1) % list.length;
    turns.set(teacher.id, i);
    const sub = list[i];
    const key = nextKey();
    const baseVersion = sub.gradeVersion ?? 0;
    sub.gradeVersion = baseVersion + 1;
    return {
      url: `${url}/api/submissions/${sub.id}`,
      method: 'PATCH',
      headers: auth(teacher),
      label: 'PATCH grade',
      key,
      type: 'submission:graded',
      body: { grade: Math.floor(random() * 100), feedback: `Well done ${keyMark(key)}`, baseVersion },
      expect: [`${prefix}:${sub.studentId}`, sock(teacher)],
      check: { id: sub.id },
    };
  };

  const oneRequest = (i) => {
    if (i % (rate * 5) === rate * 5 - 1) return newAssignment();
    const r = random();
    if (r < 0.76) {
      const si = Math.floor(random() * activeStudents);
      const s = students[si];
      if (r < 0.3) return { url: `${url}/api/assignments`, headers: auth(s), label: 'GET assignments' };
      if (r < 0.45) return { url: `${url}/api/dashboard`, headers: auth(s), label: 'GET dashboard' };
      if (r < 0.55) return { url: `${url}/api/courses`, headers: auth(s), label: 'GET courses' };
      if (r < 0.61)
        return { url: `${url}/api/events?after=${cursor}`, headers: auth(s), label: 'GET events' };
      return submission(si);
    }
    const t = Math.floor(random() * activeTeachers);
    if (r < 0.88) {
      const c = classes[pick(teacherClasses[t])];
      return {
        url: `${url}/api/assignments/${pick(c.recent)}/submissions`,
        headers: auth(teachers[t]),
        label: 'GET submissions',
      };
    }
    return grade(t);
  };

  return {
    next: () => oneRequest(counter++),
    take: (n) => Array.from({ length: n }, () => oneRequest(counter++)),
    setRate: (r) => (rate = r),
    /** The tabs' catch-up reads start 200 events before the outbox's last id `lastId`. */
    setEventCursor: (lastId) => (cursor = Math.max(0, lastId - 200)),
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
