import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { CalendarFeed, CalendarItems, CalendarQuery, ErrorBody } from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { notFound } from '../http/errors.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { CalendarService } from './service.js';

/** The signed-in user's calendar and the address of their feed; behind the authenticate hook. */
export const calendarRoutes: FastifyPluginAsyncTypebox<{ calendar: CalendarService }> = async (
  app,
  { calendar },
) => {
  const common = { security: bearerSecurity };

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
    async (request) => calendar.calendar(callerOf(request), request.query),
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
    async (request) => calendar.feed(callerOf(request)),
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
    async (request) => calendar.resetFeed(callerOf(request)),
  );
};

const FeedParams = Type.Object(
  { file: Type.String({ minLength: 1, maxLength: 100, description: '<token>.ics' }) },
  { additionalProperties: false },
);

/** GET /api/calendar/<token>.ics: no sign-in (calendar apps can't), the token is the secret. */
export const calendarFeedRoutes: FastifyPluginAsyncTypebox<{ calendar: CalendarService }> = async (
  app,
  { calendar },
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
      const text = await calendar.ics(file.slice(0, -'.ics'.length));
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('cache-control', 'private, max-age=300')
        .header('content-disposition', 'inline; filename="classwave.ics"')
        .send(text);
    },
  );
};
