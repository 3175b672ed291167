import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CategoriesBody, CategoriesResponse, IdParams } from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { CategoryService } from './service.js';

export const categoryRoutes: FastifyPluginAsyncTypebox<{ categories: CategoryService }> = async (
  app,
  { categories },
) => {
  const common = { tags: ['grading'], security: bearerSecurity };

  app.get(
    '/courses/:id/categories',
    {
      schema: {
        ...common,
        summary: "A course's grade categories with their weights, in order (the course's teacher)",
        params: IdParams,
        response: { 200: CategoriesResponse, ...signedInErrors },
      },
    },
    async (request) => categories.list(callerOf(request), request.params.id),
  );

  app.put(
    '/courses/:id/categories',
    {
      schema: {
        ...common,
        summary:
          "Write a course's grade categories whole: weights add up to 100, or an empty list for an unweighted course (its teacher)",
        params: IdParams,
        body: CategoriesBody,
        response: { 200: CategoriesResponse, ...signedInErrors },
      },
    },
    async (request) => categories.replace(callerOf(request), request.params.id, request.body),
  );
};
