import { minutesLate, workStatus, type Assignment, type OwnSubmission } from '@classwave/shared';
import type { Clock } from '../clock.js';
import { isoText, type Database, type Statement } from '../db/client.js';
import type { DomainEventBus } from '../events.js';
import type { AudiencedEvent } from '../events.js';
import { userOfRoom } from '../realtime/rooms.js';
import { assignedText } from './visibility.js';

/** What every member of a course reads alike about one of its assignments (no one's own work). */
interface SharedAssignment {
  id: string;
  title: string;
  description: string;
  dueDate: string;
  /** `dueDate` parsed once, for the status and the order. */
  due: Date;
  maxPoints: number;
  courseId: string;
  courseTitle: string;
  createdAt: string;
  gradeRelease: 'auto' | 'manual';
  closesAtDue: boolean;
  categoryId: string | null;
  /** Its course is archived (DESIGN §20): left out of the list of every course, kept in its own. */
  courseArchived: boolean;
  /** For some students only (DESIGN §20): shown to those the own part names. */
  restricted: boolean;
}

/** An assignment as the hot list statements return it: timestamps as ISO text made by PostgreSQL. */
export interface SharedRow {
  id: string;
  title: string;
  description: string;
  due_date: string;
  max_points: number;
  course_id: string;
  course_title: string;
  created_at: string;
  grade_release: 'auto' | 'manual';
  closes_at_due: boolean;
  category_id: string | null;
  /** The shared statement's only: whether its course is archived, and whether it is for some students only. */
  course_archived?: boolean;
  restricted?: boolean;
}

/**
 * A student's own part, in one row of JSON: active courses (`c`), submissions to their assignments
 * (`s`: assignment, id, submitted, grade, feedback, graded, returned — grade and feedback only once
 * returned, as the API shows them), excusals (`e`), the assignments for some students that are
 * theirs (`a`, by assignments/visibility.ts's condition) and their extensions (`x`: assignment, due).
 */
interface OwnPart {
  c: string[];
  s: [string, string, string | null, number | null, string | null, string | null, string | null][];
  e: string[];
  a: string[];
  x: [string, string][];
}

const sharedStatement: Statement = {
  name: 'assignments_shared_of_courses_v5',
  text: `select a.id, a.title, a.description, ${isoText('a.due_date')} as due_date, a.max_points,
      a.course_id, c.title as course_title, ${isoText('a.created_at')} as created_at,
      a.grade_release, a.closes_at_due, a.category_id, c.archived_at is not null as course_archived,
      a.assignees is not null as restricted
    from assignments a join courses c on c.id = a.course_id
    -- A scheduled assignment is nobody's until published (DESIGN §20); the own part says which
    -- restricted ones are the student's.
    where a.course_id = any($1::uuid[]) and a.deleted_at is null and a.published_at is not null
    order by a.due_date, a.id`,
};

// What the student was last given (DESIGN §17), never the teacher's working grade.
const returned = 's.returned_at is not null and s.returned_grade is not null';
// Work on binned assignments stays in the own part (DESIGN §17): the shared rows leave binned
// assignments out, so it shows nowhere, and a restore (an event to the course's room, which does
// not reach this cache) finds it here at once.
const ownStatement: Statement = {
  name: 'assignments_own_part_v3',
  text: `select json_build_object(
      'c', coalesce((select json_agg(m.course_id) from course_members m
        where m.student_id = $1 and m.status = 'active'), '[]'),
      's', coalesce((select json_agg(json_build_array(s.assignment_id, s.id, ${isoText('s.submitted_at')},
          case when ${returned} then s.returned_grade end, case when ${returned} then s.returned_feedback end,
          case when ${returned} then ${isoText('s.returned_graded_at')} end,
          case when ${returned} then ${isoText('s.returned_at')} end))
        from submissions s
        join assignments a on a.id = s.assignment_id
        join course_members m on m.course_id = a.course_id and m.student_id = $1 and m.status = 'active'
        where s.student_id = $1), '[]'),
      'e', coalesce((select json_agg(e.assignment_id) from excusals e where e.student_id = $1), '[]'),
      'a', coalesce((select json_agg(a.id) from assignments a
        join course_members m on m.course_id = a.course_id and m.student_id = $1 and m.status = 'active'
        where a.assignees is not null and a.deleted_at is null and ${assignedText('a', '$1')}), '[]'),
      'x', coalesce((select json_agg(json_build_array(x.assignment_id, ${isoText('x.due_date')}))
        from assignment_extensions x where x.student_id = $1), '[]')
    )::text as own`,
};

/**
 * If an invalidation from another process is ever lost (a Redis outage), a course's list is still
 * read again after this long.
 */
const MAX_AGE_MS = 30_000;

interface Entry {
  rows: SharedAssignment[];
  at: number;
}

/**
 * Students' assignment lists from a read model (issue 15): the part every member of a course reads
 * alike is kept in memory per course until a committed event that may change it (any event to the
 * course's room, or about the course or one of its assignments) drops it, on this process at once
 * and on the others through the socket adapter (`readModel:stale` on the bus; the realtime module
 * carries it). The student's own part (memberships, submissions, excusals) comes from one small
 * query spliced into the cached rows.
 *
 * In a single process (`cacheOwn`), the own part is kept too, until any committed event to the
 * student's own room: every write that changes it (a submission made or taken back, a grade
 * returned, an excusal, joining, leaving, removal, restoring) tells the student live, and the
 * event reaches the bus before the write's answer is sent, so a student still reads their own
 * writes. Across processes it is not kept: a student's next request may reach a process the news
 * has not reached yet.
 *
 * A refill racing an invalidation: each course has a generation, bumped by every invalidation; a
 * read stores what it fetched only if the generation is the one it started from, and a read that
 * starts after an invalidation never joins a fetch begun before it. Own parts do the same with
 * one counter: a fetch stores its part only if no invalidation of that student came after it began.
 */
export function createAssignmentReadModel({
  database,
  clock,
  bus,
  cacheOwn = false,
}: {
  database: Pick<Database, 'rows'>;
  clock: Clock;
  bus: DomainEventBus;
  /** Keep students' own parts too (only where this process sees every committed event). */
  cacheOwn?: boolean;
}) {
  const owns = createOwnParts(database, cacheOwn);
  const entries = new Map<string, Entry>();
  const generations = new Map<string, number>();
  /** Fetches in flight, by course and generation. */
  const inFlight = new Map<string, Promise<Map<string, SharedAssignment[]>>>();
  const generation = (courseId: string) => generations.get(courseId) ?? 0;

  const invalidate = (courseIds: Iterable<string>) => {
    for (const id of courseIds) {
      generations.set(id, generation(id) + 1);
      entries.delete(id);
    }
  };

  bus.on('live', (event) => {
    owns.invalidate(event.audience);
    const stale = staleCourses(event);
    if (stale.length === 0) return;
    invalidate(stale);
    bus.emit('readModel:stale', { courseIds: stale, remote: false });
  });
  bus.on('readModel:stale', ({ courseIds, remote }) => {
    if (remote) invalidate(courseIds);
  });

  async function fetchShared(courseIds: string[]): Promise<Map<string, SharedAssignment[]>> {
    const started = new Map(courseIds.map((id) => [id, generation(id)]));
    const rows = await database.rows<SharedRow>(sharedStatement, [`{${courseIds.join(',')}}`]);
    const byCourse = new Map<string, SharedAssignment[]>(courseIds.map((id) => [id, []]));
    for (const row of rows) byCourse.get(row.course_id)?.push(toShared(row));
    const at = Date.now();
    for (const [id, list] of byCourse)
      if (generation(id) === started.get(id)) entries.set(id, { rows: list, at });
    return byCourse;
  }

  /** The shared rows of these courses: from memory, the missing ones in one query. */
  async function sharedOf(courseIds: string[]): Promise<SharedAssignment[][]> {
    const now = Date.now();
    const found = new Map<string, SharedAssignment[]>();
    const missing: string[] = [];
    const waits: Promise<void>[] = [];
    for (const id of courseIds) {
      const entry = entries.get(id);
      if (entry && now - entry.at < MAX_AGE_MS) {
        found.set(id, entry.rows);
        continue;
      }
      const pending = inFlight.get(`${id}:${generation(id)}`);
      if (pending) waits.push(pending.then((m) => void found.set(id, m.get(id) ?? [])));
      else missing.push(id);
    }
    if (missing.length > 0) {
      const fetch = fetchShared(missing);
      const keys = missing.map((id) => `${id}:${generation(id)}`);
      for (const key of keys) inFlight.set(key, fetch);
      const forget = () => keys.forEach((key) => inFlight.get(key) === fetch && inFlight.delete(key));
      fetch.then(forget, forget);
      waits.push(fetch.then((m) => missing.forEach((id) => found.set(id, m.get(id) ?? []))));
    }
    await Promise.all(waits);
    return courseIds.map((id) => found.get(id) ?? []);
  }

  /** A student's assignments, in `courseId` only or in every active course, by due date. */
  async function forStudent(studentId: string, courseId?: string): Promise<Assignment[]> {
    const own = await owns.of(studentId);
    const courseIds = courseId === undefined ? own.c : own.c.filter((id) => id === courseId);
    if (courseIds.length === 0) return [];
    // Every course's list leaves the archived ones out, as the course list does (DESIGN §20).
    const shared = (await sharedOf(courseIds))
      .flat()
      .filter((a) => courseId !== undefined || !a.courseArchived);
    const submissions = new Map(own.s.map((s) => [s[0], s]));
    const excused = new Set(own.e);
    const mine = new Set(own.a);
    const extensions = new Map(own.x);
    const now = clock.now();
    const list = shared
      .filter((a) => !a.restricted || mine.has(a.id))
      .map((a) => toStudentView(a, submissions.get(a.id), excused.has(a.id), extensions.get(a.id), now));
    if (courseIds.length > 1 || extensions.size > 0) list.sort(byDue);
    return list;
  }

  return {
    forStudent,
    /** Drops every course's rows and every own part (tests; a process that lost its adapter). */
    clear: () => {
      invalidate([...new Set([...entries.keys(), ...generations.keys()])]);
      owns.clear();
    },
  };
}
export type AssignmentReadModel = ReturnType<typeof createAssignmentReadModel>;

/** Own parts kept at most this long, and at most this many (the oldest go first). */
const OWN_MAX_AGE_MS = 30_000;
const OWN_MAX_ENTRIES = 20_000;

/** Students' own parts, kept (when `keep`) until an event to the student's room. */
function createOwnParts(database: Pick<Database, 'rows'>, keep: boolean) {
  const kept = new Map<string, { part: OwnPart; at: number }>();
  /** Invalidations so far; per student, the count at their latest one (or below `floor`). */
  let count = 0;
  let floor = 0;
  const invalidatedAt = new Map<string, number>();

  const fetch = async (studentId: string) => {
    const [row] = await database.rows<{ own: string }>(ownStatement, [studentId]);
    return JSON.parse(row!.own) as OwnPart;
  };

  return {
    async of(studentId: string): Promise<OwnPart> {
      if (!keep) return fetch(studentId);
      const entry = kept.get(studentId);
      if (entry && Date.now() - entry.at < OWN_MAX_AGE_MS) return entry.part;
      const started = count;
      const part = await fetch(studentId);
      if (started >= floor && (invalidatedAt.get(studentId) ?? 0) <= started) {
        kept.delete(studentId);
        kept.set(studentId, { part, at: Date.now() });
        if (kept.size > OWN_MAX_ENTRIES) kept.delete(kept.keys().next().value!);
      }
      return part;
    },
    invalidate(rooms: readonly string[]) {
      if (!keep) return;
      for (const room of rooms) {
        const id = userOfRoom(room);
        if (id === undefined) continue;
        count += 1;
        kept.delete(id);
        invalidatedAt.set(id, count);
      }
      // Forgetting who was invalidated when: no fetch begun before this may store its part.
      if (invalidatedAt.size > OWN_MAX_ENTRIES) {
        invalidatedAt.clear();
        floor = ++count;
      }
    },
    clear() {
      kept.clear();
      invalidatedAt.clear();
      floor = ++count;
    },
  };
}

/** The courses whose shared rows an event may change. */
function staleCourses(event: AudiencedEvent): string[] {
  // The shared rows are the assignments and their courses' titles and archive: only a course's or
  // an assignment's events change them. A post, a comment or a submission to the class does not
  // (each made every student's next list read the class's rows again).
  const isCourse = event.type.startsWith('course:');
  if (!isCourse && !event.type.startsWith('assignment:')) return [];
  const ids = new Set<string>();
  for (const room of event.audience) if (room.startsWith('course:')) ids.add(room.slice(7));
  const data = event.data as { id?: string; courseId?: string };
  if (isCourse && typeof data.id === 'string') ids.add(data.id);
  if (!isCourse && typeof data.courseId === 'string') ids.add(data.courseId);
  return [...ids];
}

function toShared(row: SharedRow): SharedAssignment {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    dueDate: row.due_date,
    due: new Date(row.due_date),
    maxPoints: row.max_points,
    courseId: row.course_id,
    courseTitle: row.course_title,
    createdAt: row.created_at,
    gradeRelease: row.grade_release,
    closesAtDue: row.closes_at_due,
    categoryId: row.category_id,
    courseArchived: row.course_archived === true,
    restricted: row.restricted === true,
  };
}

/** One assignment as its student sees it: the shared row, their own work, their status now. */
function toStudentView(
  a: SharedAssignment,
  own: OwnPart['s'][number] | undefined,
  excused: boolean,
  /** Their extension's due date (DESIGN §20), if they have one. */
  extension: string | undefined,
  now: Date,
): Assignment {
  const dueDate = extension ?? a.dueDate;
  const due = extension === undefined ? a.due : new Date(extension);
  let submission: OwnSubmission | null = null;
  if (own) {
    const [, id, submittedAt, grade, feedback, gradedAt, returnedAt] = own;
    const isReturned = returnedAt !== null && grade !== null;
    // A grade for missing work (no `submittedAt`) is shown once returned, never while held (DESIGN §17).
    if (submittedAt !== null || isReturned)
      submission = {
        id,
        submittedAt,
        grade: isReturned ? grade : null,
        feedback: isReturned ? feedback : null,
        gradedAt: isReturned ? gradedAt : null,
        returnedAt: isReturned ? returnedAt : null,
        late: minutesLate(submittedAt, due),
      };
  }
  return {
    id: a.id,
    title: a.title,
    description: a.description,
    dueDate,
    maxPoints: a.maxPoints,
    courseId: a.courseId,
    courseTitle: a.courseTitle,
    createdAt: a.createdAt,
    submission,
    submissionCount: null,
    needsGrading: null,
    status: workStatus({ dueDate: due, excused, submission }, now, 'student'),
    gradeRelease: a.gradeRelease,
    closesAtDue: a.closesAtDue,
    categoryId: a.categoryId,
    extendedFrom: extension === undefined ? null : a.dueDate,
  };
}

function byDue(x: Assignment, y: Assignment): number {
  return x.dueDate < y.dueDate ? -1 : x.dueDate > y.dueDate ? 1 : x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
}
