import { Type, type Static } from 'typebox';
import { Course } from './teaching.js';

/**
 * Classes and membership (DESIGN §11): a student sees a course only while an active member of it.
 * Join codes are 8 characters from an alphabet without look-alikes (no 0/O, 1/I/L), shown as
 * `XXXX-XXXX`, accepted in any case with or without the dash.
 */
export const JOIN_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const JOIN_CODE_LENGTH = 8;
/** Wrong codes a student may try per account before waiting (DESIGN §11). */
export const JOIN_ATTEMPTS_PER_ACCOUNT = { max: 5, windowMs: 10 * 60 * 1000 } as const;

/** A code as people see it: `ABCD-EFGH`. */
export function formatJoinCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * A typed or pasted code in its stored form (8 upper-case characters), or null when it cannot be
 * one: spaces and dashes are ignored, letters are upper-cased, and look-alikes are not guessed at.
 */
export function normalizeJoinCode(input: string): string | null {
  const code = input.replace(/[\s-]/g, '').toUpperCase();
  if (code.length !== JOIN_CODE_LENGTH) return null;
  for (const ch of code) if (!JOIN_CODE_ALPHABET.includes(ch)) return null;
  return code;
}

/** The path of a join link, under APP_ORIGIN. */
export const joinPath = (code: string) => `/join/${formatJoinCode(code)}`;

/** What a removed student is told, by the join page and by a refused join. */
export const REMOVED_FROM_COURSE =
  'Your teacher removed you from this course. Ask them to add you back; the code cannot.';

export const MEMBER_STATUSES = ['active', 'left', 'removed'] as const;
// Spelled out: a Type.Union over `.map(...)` types as a union of nothing (its Static was `never`).
export const MemberStatus = Type.Union(
  [Type.Literal('active'), Type.Literal('left'), Type.Literal('removed')],
  { description: 'active: in the class; left: left by themselves; removed: removed by the teacher.' },
);
export type MemberStatus = Static<typeof MemberStatus>;

const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });
const CodeInput = Type.String({
  minLength: 1,
  maxLength: 32,
  description: 'A join code, e.g. ABCD-EFGH; any case, with or without the dash.',
});

export const JoinBody = Type.Object({ code: CodeInput }, { additionalProperties: false });
export type JoinBody = Static<typeof JoinBody>;

export const JoinCodeParams = Type.Object({ code: CodeInput }, { additionalProperties: false });
export type JoinCodeParams = Static<typeof JoinCodeParams>;

/** POST /api/courses/join: the course joined (200 again when already a member). */
export const JoinResponse = Type.Object({ course: Course }, { additionalProperties: false });
export type JoinResponse = Static<typeof JoinResponse>;

/** GET /api/join/:code: what the join page shows before the student confirms. */
export const JoinPreview = Type.Object(
  {
    course: Type.Object(
      { id: Uuid, title: Type.String(), code: Type.String() },
      { additionalProperties: false },
    ),
    teacher: Type.Object({ fullName: Type.String() }, { additionalProperties: false }),
    /** Active members. */
    memberCount: Type.Integer(),
    /** The caller is already an active member (the page offers to open the course instead). */
    alreadyMember: Type.Boolean(),
    /** The teacher removed the caller: the code cannot bring them back, so the page offers no Join. */
    removed: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type JoinPreview = Static<typeof JoinPreview>;

export const MemberParams = Type.Object({ id: Uuid, studentId: Uuid }, { additionalProperties: false });
export type MemberParams = Static<typeof MemberParams>;

/** One row of a course's roster, as its teacher sees it. */
export const CourseMember = Type.Object(
  {
    courseId: Uuid,
    student: Type.Object(
      { id: Uuid, fullName: Type.String(), email: Type.String() },
      { additionalProperties: false },
    ),
    status: MemberStatus,
    joinedAt: Timestamp,
    /** When the student left or was removed; null while active. */
    endedAt: Type.Union([Timestamp, Type.Null()]),
    /** Submissions the student has made in this course (kept while they are away). */
    submissionCount: Type.Integer(),
  },
  { additionalProperties: false },
);
export type CourseMember = Static<typeof CourseMember>;
export const MemberList = Type.Array(CourseMember);

export const JoinCodeBody = Type.Object(
  {
    action: Type.Union([Type.Literal('reset'), Type.Literal('disable'), Type.Literal('enable')], {
      description: 'reset: a new code (the old one stops at once); disable/enable: turn joining off or on.',
    }),
  },
  { additionalProperties: false },
);
export type JoinCodeBody = Static<typeof JoinCodeBody>;

/** A course's joining state, as its teacher sees it. */
export const JoinCodeState = Type.Object(
  {
    /** Formatted `XXXX-XXXX`. */
    joinCode: Type.String(),
    joinEnabled: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type JoinCodeState = Static<typeof JoinCodeState>;

/** What member:* events carry: the course (as a student sees it) and the roster row. */
export interface MemberEventData {
  course: Course;
  member: CourseMember;
}
