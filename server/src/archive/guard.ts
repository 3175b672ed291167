import { eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import {
  assignments,
  comments,
  courseMembers,
  courses,
  files,
  lessons,
  posts,
  submissions,
} from '../db/schema.js';
import { assignedToOne } from '../assignments/visibility.js';
import { teaches } from '../courses/teaching.js';
import { courseArchived } from './rules.js';

/**
 * The read-only rule of an archived course (DESIGN §20), in one place: every write (POST, PUT,
 * PATCH, DELETE) whose path names a course, or an assignment, submission, post, comment, lesson or
 * file of one, is refused with 409 course_archived while that course is archived. A route's path
 * says which course it writes to, so a route added later under these paths is covered without a
 * word here (archive.test.ts walks every write route of the OpenAPI document to check it). Uploads
 * name their assignment in tus metadata, so files/access.ts asks rules.ts itself; a write whose own
 * standing answers it says so on its route (`config: { archive: 'checked-by-the-write' }`).
 *
 * Only a caller who can see the course (its teachers, its active members) is told it is archived;
 * anyone else goes on to the route, which answers its 404 or 403 as it would, so the rule leaks
 * nothing. It runs after the body is validated: bad input is still a 400 naming the problem.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Declared by a write whose own first statement reads the course's `archived_at` and answers 409
     * course_archived just as this guard would (to those who see the course, before any other
     * answer): the guard's read would be a round trip more (issue 30, DESIGN §22: a write in three),
     * so the guard leaves it to the write. archive.test.ts still walks such routes.
     */
    archive?: 'checked-by-the-write';
  }
}

type Params = Record<string, string | undefined>;
/** The course a write goes to, as SQL for its id (one round trip in all), or undefined when there is none. */
type CourseOf = (params: Params, body: unknown) => SQL | undefined;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An id fit for the database: the route's schema has answered 400 for a malformed one, but not every route has one (tus). */
const uuidOf = (value: unknown) => (typeof value === 'string' && UUID.test(value) ? value : undefined);

/** The course of the row `:id` in `table`, through `courseColumn`. */
const through =
  (table: PgTable, idColumn: AnyPgColumn, courseColumn: AnyPgColumn | SQL): CourseOf =>
  (params) => {
    const id = uuidOf(params.id);
    return id ? sql`(select ${courseColumn} from ${table} where ${idColumn} = ${id})` : undefined;
  };

const ofAssignment = through(assignments, assignments.id, assignments.courseId);
const ofSubmission = through(
  submissions,
  submissions.id,
  sql`(select ${assignments.courseId} from ${assignments} where ${assignments.id} = ${submissions.assignmentId})`,
);

/** Writes that an archived course still takes: archiving itself, copying from it, a read marker. */
const ALLOWED = new Set([
  'POST /courses/:id/archive',
  'POST /courses/:id/unarchive',
  'POST /courses/:id/copy',
  // The source of a reuse may be archived; the target is checked by the copy itself.
  'POST /assignments/:id/copy',
  // "Seen" marks what the reader read: reading an archived course is allowed.
  'POST /posts/:id/seen',
  // Undoing a Return within its 10 s stops grades going out; it changes nothing of the course.
  'DELETE /returns/:id',
]);

/** The first segment of a write's path → where its course comes from. */
const COURSE_OF: Record<string, CourseOf> = {
  courses: (params) => {
    const id = uuidOf(params.id);
    return id ? sql`${id}::uuid` : undefined;
  },
  assignments: (params, body) => {
    if (params.id) return ofAssignment(params, body);
    const id = uuidOf((body as { courseId?: unknown } | undefined)?.courseId);
    return id ? sql`${id}::uuid` : undefined;
  },
  submissions: ofSubmission,
  posts: through(posts, posts.id, posts.courseId),
  comments: through(comments, comments.id, comments.courseId),
  lessons: through(lessons, lessons.id, lessons.courseId),
  files: through(files, files.id, files.courseId),
  uploads: through(files, files.id, files.courseId),
  bin: (params, body) => (params.kind === 'assignment' ? ofAssignment(params, body) : undefined),
};

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The course a request writes to, if any, by its route's path (`/api/courses/:id/posts` → the `:id`). */
export function courseWrittenTo(request: FastifyRequest): SQL | undefined {
  if (!WRITES.has(request.method)) return undefined;
  const path = (request.routeOptions.url ?? '').replace(/^\/api/, '');
  const route = `${request.method} ${path}`;
  if (ALLOWED.has(route) || request.routeOptions.config.archive === 'checked-by-the-write') return undefined;
  const courseOf = COURSE_OF[path.split('/')[1] ?? ''];
  return courseOf?.((request.params ?? {}) as Params, request.body);
}

/** The preHandler every signed-in route runs: 409 course_archived for a write to an archived course its caller can see. */
export function createArchiveGuard(db: Db) {
  return async function archivedIsReadOnly(request: FastifyRequest): Promise<void> {
    const caller = request.caller;
    if (!caller) return;
    const courseId = courseWrittenTo(request);
    if (!courseId) return;
    // A student is told about an assignment only if it is theirs (DESIGN §20): else it is not there.
    const assignmentId = (request.routeOptions.url ?? '').startsWith('/api/assignments/:id')
      ? uuidOf((request.params as Params | undefined)?.id)
      : undefined;
    const theirs = assignmentId ? assignedToOne(caller.userId, assignmentId) : sql`true`;
    const [row] = await db
      .select({
        archived: sql<boolean>`${courses.archivedAt} is not null`,
        sees: sql<boolean>`(${teaches(caller.userId)} or (exists (select 1 from ${courseMembers}
          where ${courseMembers.courseId} = ${courses.id} and ${courseMembers.studentId} = ${caller.userId}
          and ${courseMembers.status} = 'active') and ${theirs}))`,
      })
      .from(courses)
      .where(eq(courses.id, courseId));
    if (row?.archived && row.sees) throw courseArchived();
  };
}
