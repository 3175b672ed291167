import type { Role } from '@classwave/shared';

/**
 * The rooms the server puts sockets in (a client never names one) and who hears each event.
 * Only this module maps events to rooms.
 */
export const userRoom = (userId: string) => `user:${userId}`;
export const roleRoom = (role: Role) => `role:${role}`;
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

export const audience = {
  /** course:created / course:deleted: every signed-in user. */
  everyone: () => [roleRoom('student'), roleRoom('teacher')],
  /** assignment:created / assignment:deleted: all students, and the owning teacher's tabs. */
  studentsAndTeacher: (teacherId: string) => [roleRoom('student'), userRoom(teacherId)],
  /** submission:created / submission:graded: the student and the course's teacher. */
  studentAndTeacher: (studentId: string, teacherId: string) => [userRoom(studentId), userRoom(teacherId)],
};

/** The rooms a caller belongs to; replay filters events by them. */
export const roomsOf = (caller: { userId: string; role: Role }) => [
  userRoom(caller.userId),
  roleRoom(caller.role),
];
