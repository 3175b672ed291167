import type { Role } from '@classwave/shared';

/**
 * The rooms the server puts sockets in (a client never names one) and who hears each event.
 * Only this module maps events to rooms.
 */
const USER_PREFIX = 'user:';
export const userRoom = (userId: string) => `${USER_PREFIX}${userId}`;
/** The user whose room this is, or undefined for any other room. */
export const userOfRoom = (room: string) =>
  room.startsWith(USER_PREFIX) ? room.slice(USER_PREFIX.length) : undefined;
/** One string per role, shared by every socket in it (not a copy per socket). */
const ROLE_ROOMS: Readonly<Record<Role, string>> = { student: 'role:student', teacher: 'role:teacher' };
export const roleRoom = (role: Role) => ROLE_ROOMS[role];
/** A course's active members' sockets (DESIGN §11); joined at connect and on every membership change. */
export const courseRoom = (courseId: string) => `course:${courseId}`;
/**
 * The sockets of students whose tab reports this assignment (DESIGN §13 panel): the panel asks
 * these few, not the whole course room, so a recount does not ship every member's socket between processes.
 */
export const presenceRoom = (assignmentId: string) => `presence:${assignmentId}`;
/** The sockets of the teacher's tabs that show this assignment's live panel (panel/watch.ts). */
export const PANEL_PREFIX = 'panel:';
export const panelRoom = (assignmentId: string) => `${PANEL_PREFIX}${assignmentId}`;

/**
 * A student's own room for an event that only a member of the assignment's course may hear (a
 * returned grade: a former member cannot open the course). Not a socket room: the outbox resolves
 * it inside the event's transaction (member-rooms.ts) to `user:<id>` while the student is an active
 * member, and to nothing otherwise, so neither the live event nor its replay reaches a former member.
 */
export const MEMBER_STUDENT_PREFIX = 'if-member:';
export const memberStudentRoom = (studentId: string, assignmentId: string) =>
  `${MEMBER_STUDENT_PREFIX}${assignmentId}:${studentId}`;

/**
 * A course's co-teachers' own rooms (DESIGN §20). Not a socket room: like `memberStudentRoom`, the
 * outbox resolves it inside the event's transaction (teacher-rooms.ts) to `user:<id>` of each
 * co-teacher at that moment, so the event and its replay reach exactly the teachers it was sent to,
 * a new co-teacher hears the course from their acceptance on and a removed one from their removal off.
 */
export const CO_TEACHERS_PREFIX = 'co-teachers:';
export const coTeachersRoom = (courseId: string) => `${CO_TEACHERS_PREFIX}${courseId}`;

/**
 * The students an assignment is for (DESIGN §20): its course's active members it is assigned to
 * (assignments/visibility.ts's condition). Not a socket room: the outbox resolves it inside the
 * event's transaction (assignee-rooms.ts), after the rules, to their own rooms; a scheduled
 * assignment resolves to nobody. An assignment for the whole class uses `courseRoom` instead.
 */
export const ASSIGNEES_PREFIX = 'assignees:';
export const assigneesRoom = (assignmentId: string) => `${ASSIGNEES_PREFIX}${assignmentId}`;
/** One student's own room for an assignment's event, resolved only while it is theirs (a one-student view). */
export const assigneeRoom = (assignmentId: string, studentId: string) =>
  `${ASSIGNEES_PREFIX}${assignmentId}:${studentId}`;

/**
 * Whether an audience (as recorded, before the outbox resolves it) is the members' view of an
 * assignment's event: its course's room, or the students it is for (DESIGN §20). A scheduled
 * assignment has none until published, so nothing reminds or notifies its students before then.
 */
export const toItsStudents = (assignment: { id: string; courseId: string }, rooms: readonly string[]) =>
  rooms.includes(courseRoom(assignment.courseId)) || rooms.includes(assigneesRoom(assignment.id));

export const audience = {
  /** The course's teachers: its owner and its co-teachers (course:created, gradebook cells, panels, counts). */
  teachers: (courseId: string, ownerId: string) => [userRoom(ownerId), coTeachersRoom(courseId)],
  /**
   * The course's teachers by name, for a write that read (and share-locked) its co-teachers itself
   * in the event's transaction, so the outbox need not resolve them in a statement of its own.
   */
  teachersNamed: (ownerId: string, coTeacherIds: readonly string[]) => [
    ...new Set([ownerId, ...coTeacherIds].map(userRoom)),
  ],
  /** course:updated / course:deleted / assignment:*: the course's active members and its teachers. */
  course: (courseId: string, ownerId: string) => [
    courseRoom(courseId),
    ...audience.teachers(courseId, ownerId),
  ],
  /**
   * The course's active members only: the members' view of an event whose teachers' view (with
   * counts or the join code) goes to `teachers` as a separate event (DESIGN §13).
   */
  members: (courseId: string) => [courseRoom(courseId)],
  /**
   * The students who see an assignment (DESIGN §20): nobody while it is scheduled, the course's
   * room when it is for everyone, else the assignees' room.
   */
  assignees: (row: {
    id: string;
    courseId: string;
    assignees: readonly string[] | null;
    publishedAt: Date | null;
  }) =>
    row.publishedAt === null
      ? []
      : row.assignees === null
        ? [courseRoom(row.courseId)]
        : [assigneesRoom(row.id)],
  /** The students who see an assignment and its teachers: its deletion, its files. */
  assignment: (
    row: { id: string; courseId: string; assignees: readonly string[] | null; publishedAt: Date | null },
    ownerId: string,
  ) => [...audience.assignees(row), ...audience.teachers(row.courseId, ownerId)],
  /** One student's own tabs: their own view (e.g. excused), draft:saved (DESIGN §12). */
  student: (studentId: string) => [userRoom(studentId)],
  /** submission:*, member:*: the student and the course's teachers. */
  studentAndTeachers: (studentId: string, courseId: string, ownerId: string) => [
    userRoom(studentId),
    ...audience.teachers(courseId, ownerId),
  ],
  /** A returned grade: the teachers, and the student only while an active member of the course. */
  memberStudentAndTeachers: (studentId: string, assignmentId: string, courseId: string, ownerId: string) => [
    memberStudentRoom(studentId, assignmentId),
    ...audience.teachers(courseId, ownerId),
  ],
};
