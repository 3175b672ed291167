import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  ErrorBody,
  ExcuseBody,
  Gradebook,
  GradebookCell,
  GradesResponse,
  IdParams,
  ReturnBody,
  ReturnResponse,
  ScheduledReturn,
} from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { GradingService } from './service.js';

export const gradingRoutes: FastifyPluginAsyncTypebox<{ grading: GradingService }> = async (
  app,
  { grading },
) => {
  const common = { tags: ['grading'], security: bearerSecurity };

  app.get(
    '/courses/:id/gradebook',
    {
      schema: {
        ...common,
        summary:
          "A course's gradebook: its active members × its assignments, every pair a cell (the course's teacher)",
        params: IdParams,
        response: { 200: Gradebook, ...signedInErrors },
      },
    },
    async (request) => grading.gradebook(callerOf(request), request.params.id),
  );

  app.get(
    '/courses/:id/gradebook.csv',
    {
      schema: {
        ...common,
        summary: "The gradebook as CSV, UTF-8 with a BOM (the course's teacher)",
        params: IdParams,
        produces: ['text/csv'],
        response: {
          200: Type.String({
            description:
              'Student Name, Student Email, <Title> (/<max>)…, <Category> (<weight>%)… when weighted, Total Points, Total Possible, Percent',
          }),
          ...signedInErrors,
        },
      },
    },
    async (request, reply) => {
      const { fileName, csv } = await grading.gradebookCsv(callerOf(request), request.params.id);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  app.post(
    '/assignments/:id/return',
    {
      schema: {
        ...common,
        summary:
          'Return held grades to their students: all graded, unreturned ones, or those given; at once (200), ' +
          'or with undoable after the undo window (202)',
        params: IdParams,
        body: ReturnBody,
        response: { 200: ReturnResponse, 202: ScheduledReturn, ...signedInErrors },
      },
      // No body at all means "return every held grade", as `{}` does.
      preValidation: async (request) => {
        if (request.body === undefined) (request as { body: unknown }).body = {};
      },
    },
    async (request, reply) => {
      const { scheduled, ...result } = await grading.returnGrades(
        callerOf(request),
        request.params.id,
        request.body,
      );
      return reply.status(scheduled ? 202 : 200).send(result);
    },
  );

  app.delete(
    '/returns/:id',
    {
      schema: {
        ...common,
        summary:
          "Undo a scheduled Return before it runs (the course's teacher); 409 return_already_sent once it has",
        params: IdParams,
        response: { 204: Type.Null(), ...signedInErrors },
      },
    },
    async (request, reply) => {
      await grading.undoReturn(callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/assignments/:id/excuse',
    {
      schema: {
        ...common,
        summary: 'Excuse an active member from an assignment, or take it back; answers the gradebook cell',
        description:
          "For the course's teachers. A student who is not an active member is 404, one the assignment is not for " +
          '(assigned to others, or not yet published) 422 not_assigned, as a grade is.',
        params: IdParams,
        body: ExcuseBody,
        response: { 200: GradebookCell, ...signedInErrors, 422: ErrorBody },
      },
    },
    async (request) => grading.excuse(callerOf(request), request.params.id, request.body),
  );

  app.get(
    '/grades',
    {
      schema: {
        ...common,
        summary: "A student's grades by course: every assignment's status, grades and feedback once returned",
        response: { 200: GradesResponse, ...signedInErrors },
      },
    },
    async (request) => grading.grades(callerOf(request)),
  );
};
