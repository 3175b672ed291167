import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AssignmentRubric, IdParams, PutRubricBody } from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { RubricService } from './service.js';

export const rubricRoutes: FastifyPluginAsyncTypebox<{ rubrics: RubricService }> = async (
  app,
  { rubrics },
) => {
  const common = { tags: ['rubrics'], security: bearerSecurity };

  app.get(
    '/assignments/:id/rubric',
    {
      schema: {
        ...common,
        summary: "An assignment's rubric, null without one (the course's teacher and its active members)",
        params: IdParams,
        response: { 200: AssignmentRubric, ...signedInErrors },
      },
    },
    async (request) => rubrics.get(callerOf(request), request.params.id),
  );

  app.put(
    '/assignments/:id/rubric',
    {
      schema: {
        ...common,
        summary:
          "Write an assignment's rubric (the course's teacher): criteria × levels, totalling its max points",
        description:
          '`criteria: []` removes it. Every criterion and level gets a new id. Refused with 409 rubric_in_use ' +
          "once a grade was given by the rubric. To reuse another assignment's rubric, read it with GET and put its criteria here.",
        params: IdParams,
        body: PutRubricBody,
        response: { 200: AssignmentRubric, ...signedInErrors },
      },
    },
    async (request) => rubrics.put(callerOf(request), request.params.id, request.body),
  );
};
