import { Type, type Static } from 'typebox';
import { EMAIL_MAX_LENGTH } from './auth.js';
import { Course, CourseTeacherName } from './teaching.js';

/**
 * Co-teachers (DESIGN §20): a course has its owner and up to MAX_CO_TEACHERS co-teachers, invited by
 * e-mail. Co-teachers do all the owner does except delete or archive the course, remove the owner
 * or transfer it.
 */
export const MAX_CO_TEACHERS = 20;
/** How long a mailed invitation works. */
export const TEACHER_INVITE_TTL_DAYS = 7;

const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });

export const InviteTeacherBody = Type.Object(
  {
    email: Type.String({
      format: 'email',
      minLength: 3,
      maxLength: EMAIL_MAX_LENGTH,
      description: "The invited teacher's e-mail address; the invitation is mailed there.",
    }),
  },
  { additionalProperties: false },
);
export type InviteTeacherBody = Static<typeof InviteTeacherBody>;

export const CourseTeacherParams = Type.Object({ id: Uuid, userId: Uuid }, { additionalProperties: false });
export type CourseTeacherParams = Static<typeof CourseTeacherParams>;

/** An open invitation of a course, by its id (the owner cancels it). */
export const CourseTeacherInviteParams = Type.Object(
  { id: Uuid, inviteId: Uuid },
  { additionalProperties: false },
);
export type CourseTeacherInviteParams = Static<typeof CourseTeacherInviteParams>;

/** The mailed token: 43 URL-safe characters (256 bits); anything else is refused before a look-up. */
export const TeacherInviteParams = Type.Object(
  { token: Type.String({ minLength: 20, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }) },
  { additionalProperties: false },
);
export type TeacherInviteParams = Static<typeof TeacherInviteParams>;

export const CourseTeacher = Type.Object(
  {
    id: Uuid,
    fullName: Type.String(),
    email: Type.String(),
    /** The owner is first; only the owner may remove co-teachers or delete the course. */
    role: Type.Union([Type.Literal('owner'), Type.Literal('co_teacher')]),
    /** When they became a teacher of the course (the owner: when it was made). */
    since: Timestamp,
  },
  { additionalProperties: false },
);
export type CourseTeacher = Static<typeof CourseTeacher>;

/** An invitation not yet accepted (expired ones included, marked by `expiresAt`). */
export const PendingTeacherInvite = Type.Object(
  { id: Uuid, email: Type.String(), invitedAt: Timestamp, expiresAt: Timestamp },
  { additionalProperties: false },
);
export type PendingTeacherInvite = Static<typeof PendingTeacherInvite>;

/** A course's teachers and open invitations, as its teachers see them (also `course:teachers`). */
export const CourseTeachers = Type.Object(
  {
    courseId: Uuid,
    teachers: Type.Array(CourseTeacher),
    invites: Type.Array(PendingTeacherInvite),
    maxCoTeachers: Type.Integer(),
  },
  { additionalProperties: false },
);
export type CourseTeachers = Static<typeof CourseTeachers>;

/**
 * `course:teachers` as the course's members get it when its teachers change (DESIGN §20): who
 * teaches it, by name, for the course page's Instructors card, as `GET /api/courses/:id` names them.
 * Never an address, a teacher's or an invitation's: `invites` is always empty.
 */
export const CourseTeachersForMembers = Type.Object(
  {
    courseId: Uuid,
    teachers: Type.Array(CourseTeacherName),
    invites: Type.Tuple([]),
  },
  { additionalProperties: false },
);
export type CourseTeachersForMembers = Static<typeof CourseTeachersForMembers>;

/** Whether a `course:teachers` is the teachers' view (addresses, invitations) rather than the members'. */
export const isTeachersView = (list: CourseTeachers | CourseTeachersForMembers): list is CourseTeachers =>
  'maxCoTeachers' in list;

/** What the invitation's page shows before Accept. */
export const TeacherInvitePreview = Type.Object(
  {
    course: Type.Object({ id: Uuid, title: Type.String() }, { additionalProperties: false }),
    invitedBy: Type.Object({ fullName: Type.String() }, { additionalProperties: false }),
    email: Type.String(),
    expiresAt: Timestamp,
  },
  { additionalProperties: false },
);
export type TeacherInvitePreview = Static<typeof TeacherInvitePreview>;

export const AcceptedTeacherInvite = Type.Object({ course: Course }, { additionalProperties: false });
export type AcceptedTeacherInvite = Static<typeof AcceptedTeacherInvite>;
