import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Assignment, CopyAssignmentBody, CopyCourseBody, Course, IdParams } from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { ArchiveService } from './service.js';
import type { CopyService } from './copy.js';

/** Archive, unarchive and copy a course; reuse an assignment in another course (DESIGN §20). */
export const archiveRoutes: FastifyPluginAsyncTypebox<{
  archive: ArchiveService;
  copies: CopyService;
}> = async (app, { archive, copies }) => {
  const courses = { tags: ['courses'], security: bearerSecurity };

  app.post(
    '/courses/:id/archive',
    {
      schema: {
        ...courses,
        summary:
          'Archive a course (its owner): read-only (writes answer 409 course_archived), out of the course lists, under Past classes',
        params: IdParams,
        response: { 200: Course, ...signedInErrors },
      },
    },
    async (request) => archive.archive(callerOf(request), request.params.id),
  );

  app.post(
    '/courses/:id/unarchive',
    {
      schema: {
        ...courses,
        summary: 'Bring an archived course back (its owner)',
        params: IdParams,
        response: { 200: Course, ...signedInErrors },
      },
    },
    async (request) => archive.unarchive(callerOf(request), request.params.id),
  );

  app.post(
    '/courses/:id/copy',
    {
      schema: {
        ...courses,
        summary:
          'Copy a course you teach into a new one of yours: assignments, rubrics, materials, categories; never students, work or grades',
        params: IdParams,
        body: CopyCourseBody,
        response: { 201: Course, ...signedInErrors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await copies.copyCourse(callerOf(request), request.params.id, request.body)),
  );

  app.post(
    '/assignments/:id/copy',
    {
      schema: {
        tags: ['assignments'],
        security: bearerSecurity,
        summary:
          'Reuse an assignment in another course you teach (with its rubric and materials; its category by name)',
        params: IdParams,
        body: CopyAssignmentBody,
        response: { 201: Assignment, ...signedInErrors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await copies.copyAssignment(callerOf(request), request.params.id, request.body)),
  );
};
