import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  ErrorBody,
  IdParams,
  JoinBody,
  JoinCodeBody,
  JoinCodeParams,
  JoinCodeState,
  JoinPreview,
  JoinResponse,
  CourseMember,
  MemberList,
  MemberParams,
} from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { ClassService } from './service.js';

/** Classes and membership (DESIGN §11): joining by code, the roster, leaving, and the course's code. */
export const classRoutes: FastifyPluginAsyncTypebox<{ classes: ClassService }> = async (app, { classes }) => {
  const common = { tags: ['classes'], security: bearerSecurity };
  // Wrong codes are limited (429 with Retry-After).
  const joinErrors = { ...signedInErrors, 429: ErrorBody };

  app.post(
    '/courses/join',
    {
      schema: {
        ...common,
        summary: 'Join a course by its code (students); 200 again when already a member',
        body: JoinBody,
        response: { 200: JoinResponse, ...joinErrors },
      },
    },
    async (request) => classes.join({ caller: callerOf(request), ip: request.ip }, request.body.code),
  );

  app.get(
    '/join/:code',
    {
      schema: {
        ...common,
        summary: 'What the join page shows for a code: the course, its teacher and member count (students)',
        params: JoinCodeParams,
        response: { 200: JoinPreview, ...joinErrors },
      },
    },
    async (request) => classes.preview({ caller: callerOf(request), ip: request.ip }, request.params.code),
  );

  app.get(
    '/courses/:id/members',
    {
      schema: {
        ...common,
        summary: "The course's roster: active students first, with those who left or were removed (owner)",
        params: IdParams,
        response: { 200: MemberList, ...signedInErrors },
      },
    },
    async (request) => classes.members(callerOf(request), request.params.id),
  );

  app.delete(
    '/courses/:id/members/:studentId',
    {
      schema: {
        ...common,
        summary: 'Remove a student from the course; their submissions are kept (owner)',
        params: MemberParams,
        response: { 200: CourseMember, ...signedInErrors },
      },
    },
    async (request) => classes.remove(callerOf(request), request.params.id, request.params.studentId),
  );

  app.post(
    '/courses/:id/members/:studentId/restore',
    {
      schema: {
        ...common,
        summary: 'Take a removed student back into the course (owner)',
        params: MemberParams,
        response: { 200: CourseMember, ...signedInErrors },
      },
    },
    async (request) => classes.restore(callerOf(request), request.params.id, request.params.studentId),
  );

  app.post(
    '/courses/:id/leave',
    {
      schema: {
        ...common,
        summary: 'Leave a course (its active members); submissions are kept',
        params: IdParams,
        response: { 204: Type.Null(), ...signedInErrors },
      },
    },
    async (request, reply) => {
      await classes.leave(callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/courses/:id/join-code',
    {
      schema: {
        ...common,
        summary: "Reset the course's join code, or turn joining off or on (owner)",
        params: IdParams,
        body: JoinCodeBody,
        response: { 200: JoinCodeState, ...signedInErrors },
      },
    },
    async (request) => classes.joinCode(callerOf(request), request.params.id, request.body),
  );
};
