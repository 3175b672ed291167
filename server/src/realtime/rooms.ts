import type { Role } from '@classwave/shared';

/**
 * The rooms the server puts sockets in (a client never names one) and who hears each event.
 * Only this module maps events to rooms.
 */
export const userRoom = (userId: string) => `user:${userId}`;
export const roleRoom = (role: Role) => `role:${role}`;
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
/** A course's active members' sockets (DESIGN §11); joined at connect and on every membership change. */
export const courseRoom = (courseId: string) => `course:${courseId}`;

export const audience = {
  /** course:created: the owner's tabs only (nobody else is in the course yet). */
  owner: (teacherId: string) => [userRoom(teacherId)],
  /** course:updated / course:deleted / assignment:*: the course's active members and its teacher. */
  course: (courseId: string, teacherId: string) => [courseRoom(courseId), userRoom(teacherId)],
  /** submission:*, member:*: the student and the course's teacher. */
  studentAndTeacher: (studentId: string, teacherId: string) => [userRoom(studentId), userRoom(teacherId)],
};
