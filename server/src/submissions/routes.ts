import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateSubmissionBody,
  GradeBody,
  IdParams,
  OwnSubmission,
  Submission,
  SubmissionList,
} from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { SubmissionService } from './service.js';

export const submissionRoutes: FastifyPluginAsyncTypebox<{ submissions: SubmissionService }> = async (
  app,
  { submissions },
) => {
  const common = { tags: ['submissions'], security: bearerSecurity };

  app.get(
    '/assignments/:id/submissions',
    {
      schema: {
        ...common,
        summary: "An assignment's submissions, newest first (the course's teacher)",
        params: IdParams,
        response: { 200: SubmissionList, ...signedInErrors },
      },
    },
    async (request) => submissions.list(callerOf(request), request.params.id),
  );

  app.post(
    '/assignments/:id/submissions',
    {
      schema: {
        ...common,
        summary: 'Submit a text answer (students, once per assignment)',
        params: IdParams,
        body: CreateSubmissionBody,
        response: { 201: OwnSubmission, ...signedInErrors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await submissions.submit(callerOf(request), request.params.id, request.body)),
  );

  app.patch(
    '/submissions/:id',
    {
      schema: {
        ...common,
        summary: "Grade a submission (the course's teacher)",
        params: IdParams,
        body: GradeBody,
        response: { 200: Submission, ...signedInErrors },
      },
    },
    async (request) => submissions.grade(callerOf(request), request.params.id, request.body),
  );
};
