import { Type, type Static } from 'typebox';
import { WorkStatus } from './grading.js';
import { LIMITS, OwnSubmission } from './teaching.js';

/**
 * Drafts, idempotent submits and unsubmit (DESIGN §12): a student's work is never lost.
 */

const Timestamp = Type.String({ format: 'date-time' });

/** A student's saved draft of an answer. */
export const Draft = Type.Object(
  {
    content: Type.String(),
    /** Grows by one with every save; the next save names it as its baseVersion. */
    version: Type.Integer({ minimum: 1 }),
    updatedAt: Timestamp,
  },
  { additionalProperties: false },
);
export type Draft = Static<typeof Draft>;

export const SaveDraftBody = Type.Object(
  {
    /** The whole answer as typed so far; empty is allowed (the student cleared it). */
    content: Type.String({ maxLength: LIMITS.submissionContent }),
    /** The version this text was started from: 0 when there was no draft yet. */
    baseVersion: Type.Integer({ minimum: 0, maximum: 2_147_483_646 }),
  },
  { additionalProperties: false },
);
export type SaveDraftBody = Static<typeof SaveDraftBody>;

export const DraftSaved = Type.Object(
  { version: Type.Integer({ minimum: 1 }), updatedAt: Timestamp },
  { additionalProperties: false },
);
export type DraftSaved = Static<typeof DraftSaved>;

/** 409 `draft_conflict`: another tab saved first; its text and version come with the error. */
export const DraftConflictBody = Type.Object(
  {
    statusCode: Type.Integer(),
    code: Type.String(),
    error: Type.String(),
    message: Type.String(),
    content: Type.String(),
    version: Type.Integer({ minimum: 1 }),
    /** When the server saved that newer text (its clock): what the losing tab's "Saved" shows. */
    updatedAt: Timestamp,
  },
  { additionalProperties: false },
);
export type DraftConflictBody = Static<typeof DraftConflictBody>;

/** The header a submit carries so a retry answers the same submission (a UUID made at the press of Submit). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

export const SubmitHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({ format: 'uuid', description: 'A UUID made when the student pressed Submit.' }),
  ),
});
export type SubmitHeaders = Static<typeof SubmitHeaders>;

/** `draft:saved`: to the student's own tabs; the other tab fetches the text itself. */
export interface DraftSavedEvent {
  assignmentId: string;
  version: number;
  updatedAt: string;
}

/** `submission:withdrawn`: the student took a submission back (to them and the course's teacher). */
export interface SubmissionWithdrawnEvent {
  id: string;
  assignmentId: string;
  courseId: string;
  studentId: string;
}

/**
 * The short id a receipt shows for a submission: the first eight hex digits of its id, upper-cased
 * as `XXXX-XXXX`, enough for a student and teacher to name one submission to each other.
 */
export function receiptId(submissionId: string): string {
  const hex = submissionId.replace(/-/g, '').slice(0, 8).toUpperCase();
  return `${hex.slice(0, 4)}-${hex.slice(4)}`;
}

// A student's own view of what they handed in (DESIGN §17)

/** The receipt a student is given for a submission: its short id and the server's time. */
export const Receipt = Type.Object(
  {
    /** `receiptId` of the submission: `XXXX-XXXX`. */
    id: Type.String({ pattern: '^[0-9A-F]{4}-[0-9A-F]{4}$' }),
    at: Timestamp,
  },
  { additionalProperties: false },
);
export type Receipt = Static<typeof Receipt>;

/** One submit or unsubmit, with the receipt of the submission it made or took back. */
export const SubmissionHistoryEntry = Type.Object(
  {
    kind: Type.Union([Type.Literal('submitted'), Type.Literal('unsubmitted')]),
    at: Timestamp,
    receiptId: Type.String(),
  },
  { additionalProperties: false },
);
export type SubmissionHistoryEntry = Static<typeof SubmissionHistoryEntry>;

/**
 * `GET /api/assignments/:id/submission`: the student's own submission, read-only. Grade, feedback
 * and grading time are the ones last returned (as on the assignment card): a held grade is never
 * here, and a returned grade changed since stays as it was returned until the next Return.
 */
export const SubmissionView = Type.Object(
  {
    assignmentId: Type.String({ format: 'uuid' }),
    /** Where the work stands for the student (the server's clock; never `graded`). */
    status: WorkStatus,
    /** Null when the last submission was taken back and none was made since. */
    submission: Type.Union([
      Type.Object(
        {
          ...OwnSubmission.properties,
          // What the student handed in: a grade for missing work alone is no submission.
          submittedAt: Type.String({ format: 'date-time' }),
          content: Type.String(),
          receipt: Receipt,
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
    /** Every submit and unsubmit, oldest first. */
    history: Type.Array(SubmissionHistoryEntry),
  },
  { additionalProperties: false },
);
export type SubmissionView = Static<typeof SubmissionView>;

/** Draft autosave timing (DESIGN §12). */
export const DRAFT_TIMING = {
  /** Save this long after typing stops. */
  pauseMs: 1500,
  /** Save at least this often while typing goes on. */
  maxWaitMs: 10_000,
} as const;

/** Warn before the limit when this much room is left. */
export const SUBMISSION_WARN_REMAINING = 1000;
