import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, ROSTER_MAX_BYTES, RosterImportBody, RosterImportResult } from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { badRequest } from '../http/errors.js';
import { bearerSecurity } from '../http/responses.js';
import type { RosterService } from './service.js';

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  413: ErrorBody,
  415: ErrorBody,
  422: ErrorBody,
};

/** Roster import (DESIGN §20): a course's teachers; a dry run first, then the same request to commit. */
export const rosterRoutes: FastifyPluginAsyncTypebox<{ roster: RosterService }> = async (app, { roster }) => {
  // A plain CSV may come as it is (a file's bytes), not only inside JSON.
  app.addContentTypeParser(
    'text/csv',
    { parseAs: 'string', bodyLimit: ROSTER_MAX_BYTES + 1024 },
    (_r, body, done) => done(null, body),
  );

  app.post(
    '/courses/:id/roster-import',
    {
      // Room for the largest CSV, and for both OneRoster files with the JSON around them.
      bodyLimit: 2 * ROSTER_MAX_BYTES + 64 * 1024,
      schema: {
        tags: ['classes'],
        security: bearerSecurity,
        summary: "Import the class list: a dry run lists who would be added, updated or isn't in the file",
        description:
          "The course's teachers. A plain CSV (name, e-mail) as JSON `{csv}` or as a text/csv body, or a " +
          'OneRoster 1.2 export as `{users, enrollments, classSourcedId?}`. With dryRun=1 nothing changes; ' +
          'without it, new addresses are invited by e-mail (the join link) and renamed invitations updated. ' +
          'Importing the same file again changes nothing. Students not in the file are listed in `remove`, ' +
          'never removed. Over 10,000 rows: 413 roster_too_large; an unreadable file: 422 roster_invalid.',
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        querystring: Type.Object({
          dryRun: Type.Optional(
            Type.Union([Type.Literal('1'), Type.Literal('0'), Type.Literal('true'), Type.Literal('false')], {
              description: '1: only say what would change.',
            }),
          ),
        }),
        body: Type.Union([RosterImportBody, Type.String({ maxLength: ROSTER_MAX_BYTES })]),
        response: { 200: RosterImportResult, ...errors },
      },
    },
    async (request) => {
      // A bare string is a CSV only as text/csv: a JSON body is the object.
      if (typeof request.body === 'string' && !request.headers['content-type']?.startsWith('text/csv'))
        throw badRequest(
          'body must be an object: {csv} or {users, enrollments}, or send the CSV as text/csv',
        );
      return roster.import(
        callerOf(request),
        request.params.id,
        request.body,
        request.query.dryRun === '1' || request.query.dryRun === 'true',
      );
    },
  );
};
