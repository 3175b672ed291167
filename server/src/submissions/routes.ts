import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  CreateSubmissionBody,
  CurrentGrade,
  Draft,
  DraftConflictBody,
  ErrorBody,
  DraftSaved,
  ErrorCode,
  SaveDraftBody,
  SubmitHeaders,
  GradeBody,
  IdParams,
  OwnSubmission,
  Submission,
  SubmissionList,
  SubmissionView,
  StudentGradeParams,
  ClearGradeQuery,
  GradebookCell,
} from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { errorBody } from '../http/errors.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { DraftService } from './drafts.js';
import type { SubmissionViewService } from './history.js';
import type { SubmissionService } from './service.js';

/** 409 on a grade write: the usual error body, plus `current` when it is grade_conflict (GradeConflictBody). */
const GradeConflictOrError = Type.Object(
  {
    statusCode: Type.Integer(),
    code: Type.String(),
    error: Type.String(),
    message: Type.String(),
    current: Type.Optional(CurrentGrade),
  },
  { additionalProperties: false },
);

export const submissionRoutes: FastifyPluginAsyncTypebox<{
  submissions: SubmissionService;
  drafts: DraftService;
  views: SubmissionViewService;
}> = async (app, { submissions, drafts, views }) => {
  const common = { tags: ['submissions'], security: bearerSecurity };

  app.get(
    '/assignments/:id/submissions',
    {
      schema: {
        ...common,
        summary:
          "An assignment's submissions, newest first, then its grades for missing work (no `submittedAt`); the course's teacher",
        params: IdParams,
        response: { 200: SubmissionList, ...signedInErrors },
      },
    },
    async (request) => submissions.list(callerOf(request), request.params.id),
  );

  app.post(
    '/assignments/:id/submissions',
    {
      // Its standing answers 409 course_archived itself (rules.ts, submitStanding).
      config: { archive: 'checked-by-the-write' },
      schema: {
        ...common,
        summary:
          'Submit a text answer (students, once per assignment; 409 assignment_closed after the due time when it closes then)',
        description:
          'With an Idempotency-Key, a repeat of the same submit answers the same submission with 200 instead of 409.',
        params: IdParams,
        headers: SubmitHeaders,
        body: CreateSubmissionBody,
        response: { 200: OwnSubmission, 201: OwnSubmission, ...signedInErrors },
      },
    },
    async (request, reply) => {
      const { submission, created } = await submissions.submit(
        callerOf(request),
        request.params.id,
        request.body,
        request.headers['idempotency-key'],
      );
      return reply.status(created ? 201 : 200).send(submission);
    },
  );

  app.get(
    '/assignments/:id/submission',
    {
      schema: {
        ...common,
        summary:
          "The student's own submission, read-only: text, receipt, status, the returned grade and feedback, and the history of submits and unsubmits",
        description:
          '404 no_submission when the student never submitted; after an unsubmit not followed by a new submit, `submission` is null and the history stays. Anyone but an active member student gets 404 not_found.',
        params: IdParams,
        response: { 200: SubmissionView, ...signedInErrors },
      },
    },
    async (request) => views.get(callerOf(request), request.params.id),
  );

  app.delete(
    '/assignments/:id/submission',
    {
      schema: {
        ...common,
        summary: 'Unsubmit: take a submission back as a draft (students, before the due time, ungraded)',
        params: IdParams,
        response: { 200: Draft, ...signedInErrors },
      },
    },
    async (request) => drafts.unsubmit(callerOf(request), request.params.id),
  );

  app.get(
    '/assignments/:id/draft',
    {
      schema: {
        ...common,
        summary: "The student's saved draft of an answer (404 when there is none)",
        params: IdParams,
        response: { 200: Draft, ...signedInErrors },
      },
    },
    async (request) => drafts.get(callerOf(request), request.params.id),
  );

  app.put(
    '/assignments/:id/draft',
    {
      // Its standing answers 409 course_archived itself (rules.ts, draftStanding).
      config: { archive: 'checked-by-the-write' },
      schema: {
        ...common,
        summary: "Save the student's draft if it is still at baseVersion (409 draft_conflict otherwise)",
        params: IdParams,
        body: SaveDraftBody,
        response: { 200: DraftSaved, ...signedInErrors, 409: Type.Union([DraftConflictBody, ErrorBody]) },
      },
    },
    async (request, reply) => {
      const result = await drafts.save(callerOf(request), request.params.id, request.body);
      if (result.saved) return result.draft;
      const { content, version, updatedAt } = result.current;
      return reply.status(409).send({
        ...errorBody(409, ErrorCode.draftConflict, 'The draft was saved in another tab.'),
        content,
        version,
        updatedAt,
      });
    },
  );

  app.patch(
    '/submissions/:id',
    {
      // Its standing answers 409 course_archived itself (grade-standing.ts, gradeStanding).
      config: { archive: 'checked-by-the-write' },
      schema: {
        ...common,
        summary:
          "Grade a submission (the course's teacher), over the version it started from: a stale baseVersion is 409 grade_conflict with `current`",
        params: IdParams,
        body: GradeBody,
        response: { 200: Submission, ...signedInErrors, 409: GradeConflictOrError },
      },
    },
    async (request) => submissions.grade(callerOf(request), request.params.id, request.body),
  );

  app.put(
    '/assignments/:id/grades/:studentId',
    {
      // Its standing answers 409 course_archived itself (grade-standing.ts, studentGradeStanding).
      config: { archive: 'checked-by-the-write' },
      schema: {
        ...common,
        summary:
          "Grade an active member's work on an assignment, submitted or not (the course's teacher), over the version it started from",
        description:
          'With no submission the grade makes a graded row with no submission (a grade for missing work, ' +
          '`submittedAt` and `content` null); baseVersion is 0 then. A stale baseVersion is 409 grade_conflict ' +
          'with `current`; a student who is not an active member is 404, one the assignment is not for 422 not_assigned. ' +
          "Held and returned as the assignment's gradeRelease says.",
        params: StudentGradeParams,
        body: GradeBody,
        response: { 200: Submission, ...signedInErrors, 409: GradeConflictOrError, 422: ErrorBody },
      },
    },
    async (request) =>
      submissions.gradeStudent(callerOf(request), request.params.id, request.params.studentId, request.body),
  );

  app.delete(
    '/assignments/:id/grades/:studentId',
    {
      schema: {
        ...common,
        summary:
          "Take back a grade given for missing work (the course's teacher), over the version it started from",
        description:
          'The student is back to not submitted (or missing). Handed-in work keeps its grade (409: change it ' +
          'instead); a stale baseVersion is 409 grade_conflict with `current`; no grade at all is 404.',
        params: StudentGradeParams,
        querystring: ClearGradeQuery,
        response: { 200: GradebookCell, ...signedInErrors, 409: GradeConflictOrError },
      },
    },
    async (request) =>
      submissions.clearMissingGrade(
        callerOf(request),
        request.params.id,
        request.params.studentId,
        request.query.baseVersion,
      ),
  );
};
