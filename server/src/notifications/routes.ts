import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  NotificationPage,
  NotificationsQuery,
  ReadNotificationsBody,
  ReadNotificationsResponse,
} from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { NotificationService } from './service.js';

/** The signed-in user's inbox (DESIGN §14); behind the authenticate hook. */
export const notificationRoutes: FastifyPluginAsyncTypebox<{ notifications: NotificationService }> = async (
  app,
  { notifications },
) => {
  const common = { security: bearerSecurity };

  app.get(
    '/notifications',
    {
      schema: {
        ...common,
        tags: ['notifications'],
        summary: 'The inbox, newest change first (20 a page), with the unread count',
        querystring: NotificationsQuery,
        response: { 200: NotificationPage, ...signedInErrors },
      },
    },
    async (request) => notifications.list(callerOf(request), request.query.before),
  );

  app.post(
    '/notifications/read',
    {
      schema: {
        ...common,
        tags: ['notifications'],
        summary: "Mark some or all notifications read; the user's other tabs hear notifications:read",
        body: ReadNotificationsBody,
        response: { 200: ReadNotificationsResponse, ...signedInErrors },
      },
    },
    async (request) => notifications.markRead(callerOf(request), request.body),
  );
};
