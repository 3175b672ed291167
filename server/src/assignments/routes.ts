import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  Assignment,
  AssignmentList,
  CreateAssignmentBody,
  ErrorBody,
  Extension,
  ExtensionBody,
  ExtensionParams,
  IdParams,
  UpdateAssignmentBody,
} from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { AssignmentService } from './service.js';
import type { ExtensionService } from './extensions.js';

const SamplesQuery = Type.Object(
  {
    timeZone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: "The teacher's IANA time zone (e.g. Europe/Paris): samples are due at 23:59 there.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const assignmentRoutes: FastifyPluginAsyncTypebox<{
  assignments: AssignmentService;
  extensions: ExtensionService;
}> = async (app, { assignments, extensions }) => {
  const common = { tags: ['assignments'], security: bearerSecurity };

  app.get(
    '/assignments',
    {
      schema: {
        ...common,
        summary: "Teachers: their courses' assignments; students: all, with their own submission",
        response: { 200: AssignmentList, ...signedInErrors },
      },
    },
    async (request) => assignments.list(callerOf(request)),
  );

  app.post(
    '/assignments',
    {
      schema: {
        ...common,
        summary: 'Create an assignment on an own course',
        body: CreateAssignmentBody,
        response: { 201: Assignment, ...signedInErrors, 422: ErrorBody },
      },
      // Its standing reads the course's archived_at and answers 409 course_archived (create.ts).
      config: { archive: 'checked-by-the-write' },
    },
    async (request, reply) =>
      reply.status(201).send(await assignments.create(callerOf(request), request.body)),
  );

  app.post(
    '/assignments/samples',
    {
      schema: {
        ...common,
        summary: 'Create three sample assignments in a new sandbox course, seen by no student (teachers)',
        querystring: SamplesQuery,
        response: { 201: AssignmentList, ...signedInErrors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send((await assignments.createSandbox(callerOf(request), request.query.timeZone)).assignments),
  );

  app.patch(
    '/assignments/:id',
    {
      schema: {
        ...common,
        summary:
          'Edit an assignment of an own course (max points never below a grade given: 409 points_below_grade)',
        params: IdParams,
        body: UpdateAssignmentBody,
        response: { 200: Assignment, ...signedInErrors, 422: ErrorBody },
      },
    },
    async (request) => assignments.update(callerOf(request), request.params.id, request.body),
  );

  app.delete(
    '/assignments/:id',
    {
      schema: {
        ...common,
        summary:
          'Move an assignment of an own course to the bin with its submissions, restorable for 30 days',
        params: IdParams,
        response: { 204: Type.Null(), ...signedInErrors },
      },
    },
    async (request, reply) => {
      await assignments.remove(callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/assignments/:id/extensions/:studentId',
    {
      schema: {
        ...common,
        summary:
          "Give one student their own due date (the course's teachers; 404 when the student is not in the class, 422 not_assigned when it is not for them)",
        params: ExtensionParams,
        body: ExtensionBody,
        response: { 200: Extension, ...signedInErrors, 422: ErrorBody },
      },
    },
    async (request) =>
      extensions.set(callerOf(request), request.params.id, request.params.studentId, request.body.dueDate),
  );

  app.delete(
    '/assignments/:id/extensions/:studentId',
    {
      schema: {
        ...common,
        summary:
          "Take a student's extension back: the class's due date is theirs again (the course's teachers)",
        params: ExtensionParams,
        response: { 204: Type.Null(), ...signedInErrors, 422: ErrorBody },
      },
    },
    async (request, reply) => {
      await extensions.remove(callerOf(request), request.params.id, request.params.studentId);
      return reply.status(204).send(null);
    },
  );
};
