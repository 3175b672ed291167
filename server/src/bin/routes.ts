import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BinContents, BinList, BinParams, IdParams } from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { BinService } from './service.js';

/**
 * The bin's routes (DESIGN §17). A binned course is listed by `GET /api/bin` (the teacher's whole
 * bin, shown on the Courses page) and by `GET /api/courses/:id/bin` with its own id.
 */
export const binRoutes: FastifyPluginAsyncTypebox<{ bin: BinService }> = async (app, { bin }) => {
  const common = { tags: ['bin'], security: bearerSecurity };

  app.get(
    '/bin',
    {
      schema: {
        ...common,
        summary: "The teacher's bin: binned courses and assignments, restorable for 30 days",
        response: { 200: BinList, ...signedInErrors },
      },
    },
    async (request) => bin.list(callerOf(request)),
  );

  app.get(
    '/courses/:id/bin',
    {
      schema: {
        ...common,
        summary: "A course's binned assignments, and the course itself when binned (its teacher)",
        params: IdParams,
        response: { 200: BinList, ...signedInErrors },
      },
    },
    async (request) => bin.ofCourse(callerOf(request), request.params.id),
  );

  app.get(
    '/bin/:kind/:id/contents',
    {
      schema: {
        ...common,
        summary: 'What deleting a course or an assignment would move to the bin (its teacher)',
        params: BinParams,
        response: { 200: BinContents, ...signedInErrors },
      },
    },
    async (request) => bin.contents(callerOf(request), request.params.kind, request.params.id),
  );

  app.post(
    '/bin/:kind/:id/restore',
    {
      schema: {
        ...common,
        summary: 'Take a course or an assignment out of the bin (its teacher; anyone else: 404)',
        params: BinParams,
        response: { 204: Type.Null(), ...signedInErrors },
      },
    },
    async (request, reply) => {
      await bin.restore(callerOf(request), request.params.kind, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
