import { Type, type Static } from 'typebox';

/**
 * Who an assignment is for and when it shows (DESIGN §20): assigned to the whole class or to some
 * of its students, published at once or at a time, and due later for one student (an extension).
 */

const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });

/** The most students one assignment can name (a class of the bench's largest size). */
export const MAX_ASSIGNEES = 5000;

/** 'all': every member of the course, now and later; a list: those students only (members of the course). */
export const Assignees = Type.Union(
  [
    Type.Literal('all'),
    Type.Array(Uuid, {
      maxItems: MAX_ASSIGNEES,
      uniqueItems: true,
      description: 'Student ids, each an active member of the course (422 assignee_not_member otherwise).',
    }),
  ],
  { description: "'all' (the default) or the ids of the students it is for." },
);
export type Assignees = Static<typeof Assignees>;

/** When a scheduled assignment appears to its students; null or a past time: now. */
export const PublishAt = Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
  description: 'Hidden from students until then; null or a time already past publishes it now.',
});

export const ExtensionParams = Type.Object({ id: Uuid, studentId: Uuid }, { additionalProperties: false });
export type ExtensionParams = Static<typeof ExtensionParams>;

export const ExtensionBody = Type.Object(
  { dueDate: Type.String({ format: 'date-time', description: "The student's own due date." }) },
  { additionalProperties: false },
);
export type ExtensionBody = Static<typeof ExtensionBody>;

/**
 * One student's due date on one assignment (`assignment:extended`, to that student and the
 * teachers only): `dueDate` is theirs, or null once the extension is removed; `classDueDate` is
 * the assignment's own.
 */
export const Extension = Type.Object(
  {
    assignmentId: Uuid,
    courseId: Uuid,
    studentId: Uuid,
    dueDate: Type.Union([Timestamp, Type.Null()]),
    classDueDate: Timestamp,
  },
  { additionalProperties: false },
);
export type Extension = Static<typeof Extension>;
