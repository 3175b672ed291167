import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  AcceptedTeacherInvite,
  CourseTeacherInviteParams,
  CourseTeacherParams,
  CourseTeachers,
  ErrorBody,
  IdParams,
  InviteTeacherBody,
  TeacherInviteParams,
  TeacherInvitePreview,
} from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { CoTeacherService } from './service.js';

/** Co-teachers (DESIGN §20): the course's teachers, invitations by e-mail, accepting, removing. */
export const coTeacherRoutes: FastifyPluginAsyncTypebox<{ coTeachers: CoTeacherService }> = async (
  app,
  { coTeachers },
) => {
  const common = { tags: ['co-teachers'], security: bearerSecurity };

  app.get(
    '/courses/:id/teachers',
    {
      schema: {
        ...common,
        summary: "A course's teachers (owner first) and open invitations (its teachers)",
        params: IdParams,
        response: { 200: CourseTeachers, ...signedInErrors },
      },
    },
    async (request) => coTeachers.list(callerOf(request), request.params.id),
  );

  app.post(
    '/courses/:id/teachers',
    {
      schema: {
        ...common,
        summary: `Invite a co-teacher by e-mail (the owner); 409 too_many_teachers past the limit`,
        params: IdParams,
        body: InviteTeacherBody,
        response: { 201: CourseTeachers, ...signedInErrors, 503: ErrorBody },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await coTeachers.invite(callerOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/courses/:id/teachers/:userId',
    {
      schema: {
        ...common,
        summary: 'Remove a co-teacher (the owner), or leave the course (a co-teacher, their own id: 204)',
        description: 'The owner cannot be removed, nor leave. The one who goes gets `course:deleted`.',
        params: CourseTeacherParams,
        response: { 200: CourseTeachers, 204: Type.Null(), ...signedInErrors },
      },
    },
    async (request, reply) => {
      const list = await coTeachers.remove(callerOf(request), request.params.id, request.params.userId);
      return list ? list : reply.status(204).send(null);
    },
  );

  app.delete(
    '/courses/:id/teacher-invites/:inviteId',
    {
      schema: {
        ...common,
        summary: 'Cancel an open co-teacher invitation (the owner); its link stops working',
        params: CourseTeacherInviteParams,
        response: { 200: CourseTeachers, ...signedInErrors },
      },
    },
    async (request) => coTeachers.cancelInvite(callerOf(request), request.params.id, request.params.inviteId),
  );

  app.get(
    '/teacher-invites/:token',
    {
      schema: {
        ...common,
        summary: 'What a co-teacher invitation is for, before accepting it (teachers)',
        params: TeacherInviteParams,
        response: { 200: TeacherInvitePreview, ...signedInErrors, 410: ErrorBody },
      },
    },
    async (request) => coTeachers.preview(callerOf(request), request.params.token),
  );

  app.post(
    '/teacher-invites/:token/accept',
    {
      schema: {
        ...common,
        summary: 'Accept a co-teacher invitation (a teacher account with the invited e-mail)',
        params: TeacherInviteParams,
        response: { 200: AcceptedTeacherInvite, ...signedInErrors, 410: ErrorBody },
      },
    },
    async (request) => coTeachers.accept(callerOf(request), request.params.token),
  );
};
