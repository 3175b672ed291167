/**
 * The school under load: students submitting, teachers grading and setting new assignments, each
 * from its own simulated person over real HTTP. Every request's outcome goes into a ledger, which
 * knows afterwards which writes were acknowledged (a 2xx reached the client), which may or may not
 * have landed (no answer, or a 503), and which answers no client should ever get.
 */
import type { Assignment, CurrentGrade, OwnSubmission, Submission } from '@classwave/shared';
import { call, describeOutcome, ok, type Outcome, type Person } from './http.js';

export interface Course {
  id: string;
  code: string;
  teacher: Person;
}

export interface School {
  teachers: Person[];
  students: Person[];
  courses: Course[];
}

/** One student's answer to one assignment: tried until the server says it is stored. */
export interface SubmissionWrite {
  student: Person;
  assignmentId: string;
  course: Course;
  content: string;
  /** Attempts that got no answer, or a 503: each may or may not have been stored. */
  uncertain: number;
  /** The 201 a client received. */
  acked?: OwnSubmission;
  /** The id of a submission stored by an attempt whose answer was lost (learnt through a 409). */
  landedId?: string;
  /** What the student does next: post (again), look up what a 409 said is there, or nothing. */
  next: 'post' | 'look-up' | 'none';
}

/** A teacher's grade for one submission, always the same points and feedback for it. */
export interface GradeWrite {
  submissionId: string;
  write: SubmissionWrite;
  grade: number;
  feedback: string;
  uncertain: number;
  acked?: Submission;
  retry: boolean;
}

/** A teacher's new assignment: never retried (a retry would be a second assignment), so at most once. */
export interface AssignmentWrite {
  course: Course;
  title: string;
  uncertain: boolean;
  acked?: Assignment;
}

export interface LedgerOptions {
  /** Statuses that mean "not done, may have landed, try again" (503 while the database is down). */
  retryable: number[];
}

export class Ledger {
  readonly submissions = new Map<string, SubmissionWrite>();
  readonly grades = new Map<string, GradeWrite>();
  readonly assignments: AssignmentWrite[] = [];
  /** Answers no client should get: a 500, a duplicate 201, a 409 with no earlier attempt, a malformed 503... */
  readonly unexpected: string[] = [];
  readonly statuses = new Map<string, number>();
  requests = 0;
  unanswered = 0;
  timeouts = 0;
  slowestMs = 0;
  /** The most recent answers that meant "try again", for a message when they never stop. */
  readonly lastRetries: string[] = [];
  /** When each retryable answer (a 503) came. */
  readonly retryableAt: number[] = [];
  private titles = 0;

  constructor(private readonly options: LedgerOptions) {}

  /** Counts an outcome: 'retry' when there was no answer, or a retryable one (either may have landed). */
  private note(what: string, outcome: Outcome): 'answered' | 'retry' {
    this.requests++;
    this.slowestMs = Math.max(this.slowestMs, outcome.ms);
    const key = outcome.answered ? String(outcome.status) : 'none';
    this.statuses.set(key, (this.statuses.get(key) ?? 0) + 1);
    if (!outcome.answered || this.options.retryable.includes(outcome.status)) {
      this.lastRetries.push(`${what}: ${describeOutcome(outcome)}`);
      if (this.lastRetries.length > 5) this.lastRetries.shift();
    }
    if (!outcome.answered) {
      this.unanswered++;
      if (outcome.timedOut) {
        this.timeouts++;
        this.unexpected.push(`${what}: no answer within the client's timeout (a hang)`);
      }
      return 'retry';
    }
    if (this.options.retryable.includes(outcome.status)) {
      this.retryableAt.push(Date.now());
      const body = outcome.body as {
        statusCode?: unknown;
        code?: unknown;
        error?: unknown;
        message?: unknown;
      };
      const shaped =
        body?.statusCode === outcome.status &&
        body.code === 'service_unavailable' &&
        typeof body.error === 'string' &&
        typeof body.message === 'string' &&
        outcome.headers.get('retry-after') !== null;
      if (!shaped)
        this.unexpected.push(
          `${what}: ${outcome.status} not in the error shape: ${describeOutcome(outcome)}`,
        );
      return 'retry';
    }
    return 'answered';
  }

  acknowledged(): { submissions: SubmissionWrite[]; grades: GradeWrite[]; assignments: AssignmentWrite[] } {
    return {
      submissions: [...this.submissions.values()].filter((w) => w.acked),
      grades: [...this.grades.values()].filter((g) => g.acked),
      assignments: this.assignments.filter((a) => a.acked),
    };
  }

  /** A student's next job: one to finish, else a known assignment not tried yet. */
  nextSubmission(student: Person): SubmissionWrite | undefined {
    for (const w of this.submissions.values()) if (w.student === student && w.next !== 'none') return w;
    const open = this.assignments.filter(
      (a) => a.acked && !this.submissions.has(`${student.id}:${a.acked.id}`),
    );
    const pick = open[Math.floor(Math.random() * open.length)];
    if (!pick?.acked) return undefined;
    const write: SubmissionWrite = {
      student,
      assignmentId: pick.acked.id,
      course: pick.course,
      content: `${student.fullName}'s answer to ${pick.title}`,
      uncertain: 0,
      next: 'post',
    };
    this.submissions.set(`${student.id}:${write.assignmentId}`, write);
    return write;
  }

  async submit(base: string, write: SubmissionWrite): Promise<void> {
    const { student } = write;
    const what = `${student.email} submitting to ${write.assignmentId}`;
    if (write.next === 'look-up') return this.lookUp(base, write, what);
    const outcome = await call(base, 'POST', `/api/assignments/${write.assignmentId}/submissions`, {
      token: student.token,
      body: { content: write.content },
    });
    if (this.note(what, outcome) === 'retry') {
      write.uncertain++;
      return;
    }
    if (!outcome.answered) return;
    if (outcome.status === 201) {
      write.acked = outcome.body as OwnSubmission;
      write.next = 'none';
      this.gradeLater(write.acked.id, write);
    } else if (outcome.status === 409 && write.uncertain > 0) {
      // An earlier attempt whose answer was lost did land: the retry is refused, not stored twice.
      write.next = 'look-up';
    } else {
      this.unexpected.push(`${what}: ${describeOutcome(outcome)} (after ${write.uncertain} unanswered)`);
      write.next = 'none';
    }
  }

  /** After a 409: the id of what landed, from the student's own list (as their page would show it). */
  private async lookUp(base: string, write: SubmissionWrite, what: string): Promise<void> {
    const mine = await call(base, 'GET', '/api/assignments', { token: write.student.token });
    if (this.note(`${what} (looking it up)`, mine) === 'retry' || !mine.answered) return;
    const found =
      mine.status === 200
        ? (mine.body as Assignment[]).find((a) => a.id === write.assignmentId)?.submission
        : undefined;
    if (found) {
      write.landedId = found.id;
      this.gradeLater(found.id, write);
    } else this.unexpected.push(`${what}: 409, then no submission in the list: ${describeOutcome(mine)}`);
    write.next = 'none';
  }

  private gradeLater(submissionId: string, write: SubmissionWrite): void {
    // Some points from 0 to 100 that depend only on the submission, so a retry sends the same grade.
    const grade = Number.parseInt(submissionId.slice(0, 8), 16) % 101;
    this.grades.set(submissionId, {
      submissionId,
      write,
      grade,
      feedback: `Marked ${grade}/100`,
      uncertain: 0,
      retry: true,
    });
  }

  nextGrade(teacher: Person): GradeWrite | undefined {
    for (const g of this.grades.values()) if (g.retry && g.write.course.teacher === teacher) return g;
    return undefined;
  }

  async grade(base: string, teacher: Person, g: GradeWrite): Promise<void> {
    const what = `${teacher.email} grading ${g.submissionId}`;
    const outcome = await call(base, 'PATCH', `/api/submissions/${g.submissionId}`, {
      token: teacher.token,
      // Each submission is graded once, from version 0; a retry of a write that did land meets
      // its own grade as grade_conflict's `current`, which acknowledges it.
      body: { grade: g.grade, feedback: g.feedback, baseVersion: 0 },
    });
    if (this.note(what, outcome) === 'retry') {
      g.uncertain++;
      return;
    }
    if (!outcome.answered) return;
    const body = outcome.body as Submission;
    const current = (outcome.body as { code?: string; current?: CurrentGrade }).current;
    if (outcome.status === 200 && body.grade === g.grade && body.feedback === g.feedback && body.gradedAt) {
      g.acked = body;
      g.retry = false;
    } else if (
      outcome.status === 409 &&
      current &&
      current.grade === g.grade &&
      current.feedback === g.feedback &&
      current.gradedAt
    ) {
      // The verifier reads the acknowledged grade, feedback and time, all of which `current` carries.
      g.acked = {
        grade: current.grade,
        feedback: current.feedback,
        gradedAt: current.gradedAt,
      } as Submission;
      g.retry = false;
    } else {
      this.unexpected.push(`${what}: ${describeOutcome(outcome)}`);
      g.retry = false;
    }
  }

  /** A read: it must be answered 200 (or, where allowed, a retryable status in the error shape). */
  async read(base: string, person: Person, url: string): Promise<void> {
    const outcome = await call(base, 'GET', url, { token: person.token });
    if (this.note(`${person.email} reading ${url}`, outcome) === 'retry') return;
    if (outcome.answered && outcome.status !== 200)
      this.unexpected.push(`${person.email} reading ${url}: ${describeOutcome(outcome)}`);
  }

  async createAssignment(base: string, course: Course): Promise<void> {
    const write: AssignmentWrite = {
      course,
      title: `${course.code} task ${++this.titles}`,
      uncertain: false,
    };
    this.assignments.push(write);
    const outcome = await call(base, 'POST', '/api/assignments', {
      token: course.teacher.token,
      body: {
        title: write.title,
        dueDate: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        courseId: course.id,
      },
    });
    if (this.note(`${course.teacher.email} creating ${write.title}`, outcome) === 'retry') {
      write.uncertain = true;
      return;
    }
    if (outcome.answered && outcome.status === 201) write.acked = outcome.body as Assignment;
    else this.unexpected.push(`creating ${write.title}: ${describeOutcome(outcome)}`);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const between = (min: number, max: number) => min + Math.random() * (max - min);

/**
 * Every student and teacher working at once until `running()` turns false. Students submit (or,
 * with every known assignment done, read their list); teachers grade and set assignments. Students pause
 * 50–250 ms between requests, teachers 20–100 ms; a teacher sets a new assignment about once a
 * second. After a request that got no answer a person waits 0.5–1 s, as the web client would.
 */
export async function runLoad(base: string, school: School, ledger: Ledger, running: () => boolean) {
  const pause = async (unansweredBefore: number, min: number, max: number) =>
    ledger.unanswered > unansweredBefore ? sleep(between(500, 1000)) : sleep(between(min, max));
  const student = async (person: Person) => {
    while (running()) {
      const before = ledger.unanswered;
      const write = ledger.nextSubmission(person);
      // With nothing left to submit, the student looks at their assignments (a read to answer too).
      if (write) await ledger.submit(base, write);
      else await ledger.read(base, person, '/api/assignments');
      await pause(before, 50, 250);
    }
  };
  const teacher = async (person: Person) => {
    const courses = school.courses.filter((c) => c.teacher === person);
    let lastCreated = 0;
    while (running()) {
      const before = ledger.unanswered;
      if (Date.now() - lastCreated > 1000) {
        lastCreated = Date.now();
        await ledger.createAssignment(base, courses[Math.floor(Math.random() * courses.length)]!);
      } else {
        const g = ledger.nextGrade(person);
        if (g) await ledger.grade(base, person, g);
      }
      await pause(before, 20, 100);
    }
  };
  await Promise.all([...school.students.map(student), ...school.teachers.map(teacher)]);
}

/**
 * Finishes every write left open when the load stopped (the server is up): unanswered submissions
 * are sent again until a 201, or a 409 and a look-up; unanswered grades until a 200.
 */
export async function settle(base: string, school: School, ledger: Ledger, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const submissions = [...ledger.submissions.values()].filter((w) => w.next !== 'none');
    const grades = [...ledger.grades.values()].filter((g) => g.retry);
    if (submissions.length === 0 && grades.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(
        `${submissions.length} submissions and ${grades.length} grades still open; lately:\n${ledger.lastRetries.join('\n')}`,
      );
    await Promise.all(
      school.students.map(async (student) => {
        for (const w of submissions) if (w.student === student) await ledger.submit(base, w);
      }),
    );
    await Promise.all(
      school.teachers.map(async (teacher) => {
        for (const g of grades) if (g.write.course.teacher === teacher) await ledger.grade(base, teacher, g);
      }),
    );
  }
}

/**
 * Signs everyone up (a few at a time, as argon2 is slow), opens one course per teacher and has every
 * student join every course by its join code, so each student sees (and may submit to) every
 * assignment of the school.
 */
export async function openSchool(
  base: string,
  signUp: (role: 'student' | 'teacher', fullName: string) => Promise<Person>,
  size: { teachers: number; students: number },
): Promise<School> {
  const teachers: Person[] = [];
  for (let i = 0; i < size.teachers; i++) teachers.push(await signUp('teacher', `Teacher ${i + 1}`));
  const students: Person[] = [];
  const queue = Array.from({ length: size.students }, (_, i) => i);
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift())
        students.push(await signUp('student', `Student ${i + 1}`));
    }),
  );
  const courses: Course[] = [];
  for (const [i, teacher] of teachers.entries()) {
    const code = `RL${100 + i}`;
    const course = await ok<{ id: string; joinCode: string | null }>(base, 'POST', '/api/courses', {
      token: teacher.token,
      body: { title: `Reliability ${i + 1}`, code, description: 'Submissions under fire.' },
    });
    courses.push({ id: course.id, code, teacher });
    const joinCode = course.joinCode;
    if (!joinCode) throw new Error(`course ${course.id} came back without its join code`);
    await Promise.all(
      students.map((student) =>
        ok(base, 'POST', '/api/courses/join', { token: student.token, body: { code: joinCode } }),
      ),
    );
  }
  return { teachers, students, courses };
}
