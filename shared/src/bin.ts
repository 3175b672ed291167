import { Type, type Static } from 'typebox';

/** The bin (DESIGN §17): deleted courses and assignments, restorable for BIN_KEEP_DAYS, then purged. */

/** How long a binned course or assignment can be restored before a job purges it. */
export const BIN_KEEP_DAYS = 30;

export const BIN_KINDS = ['course', 'assignment'] as const;
export type BinKind = (typeof BIN_KINDS)[number];

const Uuid = Type.String({ format: 'uuid' });
const Kind = Type.Union([Type.Literal('course'), Type.Literal('assignment')]);
const Timestamp = Type.String({ format: 'date-time' });

/** `/api/bin/:kind/:id/…`: an unknown kind is a 400 from the schema. */
export const BinParams = Type.Object({ kind: Kind, id: Uuid }, { additionalProperties: false });
export type BinParams = Static<typeof BinParams>;

/** What a course or an assignment holds: what its delete confirmation names ("3 submissions, 2 grades"). */
export const BinContents = Type.Object(
  {
    /** Handed-in work (a grade given for missing work is a grade, not a submission). */
    submissions: Type.Integer({ minimum: 0 }),
    grades: Type.Integer({ minimum: 0 }),
    /** Students' unsubmitted drafts. */
    drafts: Type.Integer({ minimum: 0 }),
    /** A course's assignments (live and already binned); 0 for an assignment. */
    assignments: Type.Integer({ minimum: 0 }),
    /** A course's students (any status); 0 for an assignment. */
    students: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type BinContents = Static<typeof BinContents>;

export const BinItem = Type.Object(
  {
    kind: Kind,
    id: Uuid,
    title: Type.String(),
    /** The course it belongs to (a course: itself). */
    courseId: Uuid,
    courseTitle: Type.String(),
    deletedAt: Timestamp,
    /** When the purge job removes it for good. */
    purgeAt: Timestamp,
    contents: BinContents,
  },
  { additionalProperties: false },
);
export type BinItem = Static<typeof BinItem>;

/** Binned items, most recently binned first. */
export const BinList = Type.Object({ items: Type.Array(BinItem) }, { additionalProperties: false });
export type BinList = Static<typeof BinList>;

/** "3 submissions, 2 grades": what a delete would move to the bin, or null when it holds nothing. */
export function describeContents(c: BinContents): string | null {
  const parts: string[] = [];
  const add = (n: number, one: string, many: string) => {
    if (n > 0) parts.push(`${n} ${n === 1 ? one : many}`);
  };
  add(c.assignments, 'assignment', 'assignments');
  add(c.students, 'student', 'students');
  add(c.submissions, 'submission', 'submissions');
  add(c.grades, 'grade', 'grades');
  add(c.drafts, 'draft', 'drafts');
  return parts.length > 0 ? parts.join(', ') : null;
}
