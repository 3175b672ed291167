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

export const audience = {
  /** course:created: the owner's tabs only (nobody else is in a new course; a restored one's members hear it in their own rooms). */
  owner: (teacherId: string) => [userRoom(teacherId)],
  /** course:updated / course:deleted / assignment:*: the course's active members and its teacher. */
  course: (courseId: string, teacherId: string) => [courseRoom(courseId), userRoom(teacherId)],
  /**
   * The course's active members only: the members' view of an event whose teacher's view (with
   * counts or the join code) goes to `owner` as a separate event (DESIGN §13).
   */
  members: (courseId: string) => [courseRoom(courseId)],
  /**
   * The course's teachers only (DESIGN §21 `lesson:tally`, a question's teachers' view): today the
   * owner's tabs; where "the course's teachers" grows (co-teachers, §20), it grows here.
   */
  courseTeachers: (_courseId: string, teacherId: string) => [userRoom(teacherId)],
  /** One student's own tabs: their own view (e.g. excused), draft:saved (DESIGN §12). */
  student: (studentId: string) => [userRoom(studentId)],
  /** submission:*, member:*: the student and the course's teacher. */
  studentAndTeacher: (studentId: string, teacherId: string) => [userRoom(studentId), userRoom(teacherId)],
  /** A returned grade: the teacher, and the student only while an active member of the course. */
  memberStudentAndTeacher: (studentId: string, assignmentId: string, teacherId: string) => [
    memberStudentRoom(studentId, assignmentId),
    userRoom(teacherId),
  ],
};
