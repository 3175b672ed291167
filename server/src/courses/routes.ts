import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  Course,
  CourseDetail,
  CourseList,
  CourseListQuery,
  CreateCourseBody,
  IdParams,
  UpdateCourseBody,
} from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { CourseService } from './service.js';
import type { AssignmentService } from '../assignments/service.js';

export const courseRoutes: FastifyPluginAsyncTypebox<{
  courses: CourseService;
  /** Sample data goes to a new sandbox course (DESIGN §17), made with its assignments. */
  sandbox: Pick<AssignmentService, 'createSandbox'>;
}> = async (app, { courses, sandbox }) => {
  const common = { tags: ['courses'], security: bearerSecurity };

  app.get(
    '/courses',
    {
      schema: {
        ...common,
        summary:
          "The caller's courses (a teacher's own, a student's memberships), newest first; with archived=true, the past classes",
        querystring: CourseListQuery,
        response: { 200: CourseList, ...signedInErrors },
      },
    },
    async (request) => courses.list(callerOf(request), request.query.archived === true),
  );

  app.post(
    '/courses',
    {
      schema: {
        ...common,
        summary: 'Create a course (teachers)',
        body: CreateCourseBody,
        response: { 201: Course, ...signedInErrors },
      },
    },
    async (request, reply) => reply.status(201).send(await courses.create(callerOf(request), request.body)),
  );

  app.post(
    '/courses/samples',
    {
      schema: {
        ...common,
        summary: 'Create a sandbox course with three sample assignments, seen by no student (teachers)',
        response: { 201: CourseList, ...signedInErrors },
      },
    },
    async (request, reply) =>
      reply.status(201).send([(await sandbox.createSandbox(callerOf(request))).course]),
  );

  app.get(
    '/courses/:id',
    {
      schema: {
        ...common,
        summary: 'A course with its assignments by due date',
        params: IdParams,
        response: { 200: CourseDetail, ...signedInErrors },
      },
    },
    async (request) => courses.detail(callerOf(request), request.params.id),
  );

  app.patch(
    '/courses/:id',
    {
      schema: {
        ...common,
        summary: 'Edit an own course (title, code, description; the code unique among yours: 409)',
        params: IdParams,
        body: UpdateCourseBody,
        response: { 200: Course, ...signedInErrors },
      },
    },
    async (request) => courses.update(callerOf(request), request.params.id, request.body),
  );

  app.delete(
    '/courses/:id',
    {
      schema: {
        ...common,
        summary:
          'Move an own course to the bin, restorable for 30 days (refused while it has live assignments)',
        params: IdParams,
        response: { 204: Type.Null(), ...signedInErrors },
      },
    },
    async (request, reply) => {
      await courses.remove(callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
