import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { callerOf } from '../auth/authenticate.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { ReplayService } from './replay.js';

const ReplayResponse = Type.Object(
  {
    resync: Type.Boolean({
      description: 'True when missed events are no longer kept: refetch what is shown.',
    }),
    lastId: Type.Integer({ description: 'The newest event id; continue from here.' }),
    events: Type.Array(
      Type.Object(
        {
          id: Type.Integer(),
          type: Type.String(),
          at: Type.String({ format: 'date-time' }),
          data: Type.Unknown(),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const replayRoutes: FastifyPluginAsyncTypebox<{ replay: ReplayService }> = async (app, { replay }) => {
  app.get(
    '/events',
    {
      schema: {
        tags: ['realtime'],
        security: bearerSecurity,
        summary: "The caller's live events after an id (for catching up after a reconnect)",
        querystring: Type.Object(
          { after: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })) },
          { additionalProperties: false },
        ),
        response: { 200: ReplayResponse, ...signedInErrors },
      },
    },
    async (request) => replay.after(callerOf(request), request.query.after),
  );
};
