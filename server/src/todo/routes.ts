import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Todo } from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { TodoService } from './service.js';

/** GET /api/todo, behind the authenticate hook. */
export const todoRoutes: FastifyPluginAsyncTypebox<{ todo: TodoService }> = async (app, { todo }) => {
  const common = { security: bearerSecurity };

  app.get(
    '/todo',
    {
      schema: {
        ...common,
        tags: ['todo'],
        summary: 'Students: work not yet submitted; teachers: submissions to grade and grades to return',
        response: { 200: Todo, ...signedInErrors },
      },
    },
    async (request) => todo.todo(callerOf(request)),
  );
};
