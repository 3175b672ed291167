import {
  ErrorCode,
  receiptId,
  workStatus,
  type RubricScores,
  type SubmissionHistoryEntry,
  type SubmissionView,
} from '@classwave/shared';
import { filesOfSubmissions } from '../files/service.js';
import type { Caller } from '../auth/caller.js';
import type { Clock } from '../clock.js';
import { isoText, type Database, type Statement, type Tx } from '../db/client.js';
import { submissionEvents } from '../db/schema.js';
import { AppError, notFound } from '../http/errors.js';
import { toOwnSubmission } from '../assignments/queries.js';
import { assignedText, effectiveDueText } from '../assignments/visibility.js';

/**
 * Records a submit or an unsubmit in the student's history (DESIGN §17). Called inside the
 * transaction that makes or deletes the submission, so the history never disagrees with it.
 */
export async function recordSubmissionEvent(
  tx: Tx,
  submission: { id: string; assignmentId: string; studentId: string },
  kind: SubmissionHistoryEntry['kind'],
  at: Date,
): Promise<void> {
  await tx.insert(submissionEvents).values({
    assignmentId: submission.assignmentId,
    studentId: submission.studentId,
    submissionId: submission.id,
    kind,
    at,
  });
}

/** What `ownStatement` reads: the assignment, the caller's standing, their submission and history. */
interface OwnRow {
  due_date: string;
  membership: string | null;
  assigned: boolean;
  excused: boolean;
  sub_id: string | null;
  content: string | null;
  submitted_at: string | null;
  returned_grade: number | null;
  returned_feedback: string | null;
  returned_graded_at: string | null;
  returned_at: string | null;
  returned_rubric_scores: RubricScores | null;
  history: string | null;
}

/**
 * `$1` the assignment, `$2` the student. One statement, so the submission and its history are read
 * from one snapshot (a submit or unsubmit committing meanwhile is seen in both or in neither); an
 * assignment or course in the bin is not there (DESIGN §17). Only
 * the returned grade's columns are read: the working grade may be held (DESIGN §13, §17).
 */
const ownStatement: Statement = {
  name: 'own_submission_v4',
  text: `select ${isoText(effectiveDueText('a', '$2'))} as due_date, m.status as membership,
      ${assignedText('a', '$2')} as assigned,
      exists (select 1 from excusals e where e.assignment_id = a.id and e.student_id = $2) as excused,
      s.id as sub_id, s.content, ${isoText('s.submitted_at')} as submitted_at,
      s.returned_grade, s.returned_feedback, ${isoText('s.returned_graded_at')} as returned_graded_at,
      ${isoText('s.returned_at')} as returned_at, s.returned_rubric_scores,
      (select json_agg(json_build_object('kind', h.kind, 'at', ${isoText('h.at')},
          'submissionId', h.submission_id) order by h.at, h.id)
        from submission_events h where h.assignment_id = a.id and h.student_id = $2)::text as history
    from assignments a
    join courses c on c.id = a.course_id and c.deleted_at is null
    left join course_members m on m.course_id = a.course_id and m.student_id = $2
    left join submissions s on s.assignment_id = a.id and s.student_id = $2
    where a.id = $1 and a.deleted_at is null`,
};

const NOT_FOUND = 'Assignment not found.';

/** A student's own view of what they handed in (DESIGN §17). */
export function createSubmissionViewService({
  database,
  clock,
}: {
  database: Pick<Database, 'rows' | 'db'>;
  clock: Clock;
}) {
  return {
    /**
     * The student's submission, read-only, with its receipt, status, returned grade and history.
     * A teacher, a student who is not an active member, or an assignment that is not there: the
     * same 404, so the answer tells nobody whether the assignment exists. A member who never
     * submitted: 404 no_submission.
     */
    async get(caller: Caller, assignmentId: string): Promise<SubmissionView> {
      if (caller.role !== 'student') throw notFound(NOT_FOUND);
      const [row] = await database.rows<OwnRow>(ownStatement, [assignmentId, caller.userId]);
      // Scheduled or not theirs (DESIGN §20): not there, as for a non-member.
      if (row?.membership !== 'active' || !row.assigned) throw notFound(NOT_FOUND);
      const history = (
        JSON.parse(row.history ?? '[]') as {
          kind: 'submitted' | 'unsubmitted';
          at: string;
          submissionId: string;
        }[]
      ).map(({ kind, at, submissionId }) => ({ kind, at, receiptId: receiptId(submissionId) }));
      // Taken back and not submitted again: the history is still the student's to read (it is
      // where they see that they took it back), so this answers 200 with `submission: null` and
      // the status as if never submitted. Only a student with no history at all gets the 404.
      // A grade for missing work is no submission either (DESIGN §17): the assignment list and the
      // grades page show it once returned.
      if (!row.submitted_at && history.length === 0)
        throw new AppError(404, ErrorCode.noSubmission, 'You have not submitted this assignment.');
      const graded = row.sub_id
        ? toOwnSubmission(
            {
              id: row.sub_id,
              submittedAt: row.submitted_at === null ? null : new Date(row.submitted_at),
              returnedGrade: row.returned_grade,
              returnedFeedback: row.returned_feedback,
              returnedGradedAt: row.returned_graded_at === null ? null : new Date(row.returned_graded_at),
              returnedAt: row.returned_at === null ? null : new Date(row.returned_at),
            },
            new Date(row.due_date),
          )
        : null;
      const submittedAt = row.submitted_at;
      return {
        assignmentId,
        status: workStatus(
          { dueDate: row.due_date, excused: row.excused, submission: graded },
          clock.now(),
          'student',
        ),
        submission:
          graded && submittedAt
            ? {
                ...graded,
                // As returned with the grade, like it (DESIGN §17): none while nothing is returned.
                rubricScores: graded.returnedAt ? (row.returned_rubric_scores ?? null) : null,
                content: row.content ?? '',
                submittedAt,
                receipt: { id: receiptId(graded.id), at: submittedAt },
                files: (await filesOfSubmissions(database.db, [graded.id])).get(graded.id) ?? [],
              }
            : null,
        history,
      };
    },
  };
}

export type SubmissionViewService = ReturnType<typeof createSubmissionViewService>;
