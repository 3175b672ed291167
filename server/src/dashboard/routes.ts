import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Dashboard } from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { createDashboardService } from './service.js';

export const dashboardRoutes: FastifyPluginAsyncTypebox<{
  dashboard: ReturnType<typeof createDashboardService>;
}> = async (app, { dashboard }) => {
  app.get(
    '/dashboard',
    {
      schema: {
        tags: ['dashboard'],
        security: bearerSecurity,
        summary: 'Stats and upcoming events for the signed-in user',
        response: { 200: Dashboard, ...signedInErrors },
      },
    },
    async (request) => dashboard.get(callerOf(request)),
  );
};
