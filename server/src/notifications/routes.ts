import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  CalendarFeed,
  CalendarItems,
  CalendarQuery,
  DetectedTimeZoneBody,
  ErrorBody,
  NotificationPage,
  NotificationSettings,
  NotificationsQuery,
  ReadNotificationsBody,
  ReadNotificationsResponse,
  Todo,
} from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { notFound } from '../http/errors.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { NotificationService } from './service.js';

/** The inbox, settings, to-do and calendar of the signed-in user (DESIGN §14); behind the authenticate hook. */
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

  app.get(
    '/me/notification-settings',
    {
      schema: {
        ...common,
        tags: ['notifications'],
        summary: 'Quiet hours (opt-in) and e-mail for timed notifications',
        response: { 200: NotificationSettings, ...signedInErrors },
      },
    },
    async (request) => notifications.settings(callerOf(request)),
  );

  app.put(
    '/me/notification-settings',
    {
      schema: {
        ...common,
        tags: ['notifications'],
        summary: 'Set quiet hours and e-mail (timeZone: an IANA zone)',
        body: NotificationSettings,
        response: { 200: NotificationSettings, ...signedInErrors },
      },
    },
    async (request) => notifications.updateSettings(callerOf(request), request.body),
  );

  app.put(
    '/me/time-zone',
    {
      schema: {
        ...common,
        tags: ['notifications'],
        summary: "Record the browser's zone for the user's texts (kept unless they chose one in Settings)",
        body: DetectedTimeZoneBody,
        response: { 200: NotificationSettings, ...signedInErrors },
      },
    },
    async (request) => notifications.recordTimeZone(callerOf(request), request.body.timeZone),
  );

  app.get(
    '/todo',
    {
      schema: {
        ...common,
        tags: ['notifications'],
        summary: 'Students: work not yet submitted; teachers: submissions to grade and grades to return',
        response: { 200: Todo, ...signedInErrors },
      },
    },
    async (request) => notifications.todo(callerOf(request)),
  );

  app.get(
    '/calendar',
    {
      schema: {
        ...common,
        tags: ['calendar'],
        summary: 'Visible assignments due in [from, to) (at most 400 days)',
        querystring: CalendarQuery,
        response: { 200: CalendarItems, ...signedInErrors },
      },
    },
    async (request) => notifications.calendar(callerOf(request), request.query),
  );

  app.get(
    '/calendar/feed',
    {
      schema: {
        ...common,
        tags: ['calendar'],
        summary: 'The personal ICS feed URL, or null before one was made',
        response: { 200: CalendarFeed, ...signedInErrors },
      },
    },
    async (request) => notifications.feed(callerOf(request)),
  );

  app.post(
    '/calendar/feed',
    {
      schema: {
        ...common,
        tags: ['calendar'],
        summary: 'Make a new feed URL; the old one answers 404 at once',
        response: { 200: CalendarFeed, ...signedInErrors },
      },
    },
    async (request) => notifications.resetFeed(callerOf(request)),
  );
};

const FeedParams = Type.Object(
  { file: Type.String({ minLength: 1, maxLength: 100, description: '<token>.ics' }) },
  { additionalProperties: false },
);

/** GET /api/calendar/<token>.ics: no sign-in (calendar apps can't), the token is the secret. */
export const calendarFeedRoutes: FastifyPluginAsyncTypebox<{ notifications: NotificationService }> = async (
  app,
  { notifications },
) => {
  app.get(
    '/calendar/:file',
    {
      schema: {
        tags: ['calendar'],
        summary: 'The personal due-date feed (RFC 5545), for calendar apps',
        params: FeedParams,
        produces: ['text/calendar'],
        response: {
          200: { description: 'An iCalendar file', content: { 'text/calendar': { schema: Type.String() } } },
          400: ErrorBody,
          404: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      if (!file.endsWith('.ics')) throw notFound('No calendar feed has this address.');
      const text = await notifications.ics(file.slice(0, -'.ics'.length));
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('cache-control', 'private, max-age=300')
        .header('content-disposition', 'inline; filename="classwave.ics"')
        .send(text);
    },
  );
};
