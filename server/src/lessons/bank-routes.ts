import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BankQuestion, IdParams, LessonQuestionParams, SaveBankQuestionBody } from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { BankService } from './bank.js';

/** A course's question bank (DESIGN §21): its teachers only. */
export const bankRoutes: FastifyPluginAsyncTypebox<{ bank: BankService }> = async (app, { bank }) => {
  const common = { tags: ['lessons'], security: bearerSecurity };

  app.get(
    '/courses/:id/question-bank',
    {
      schema: {
        ...common,
        summary: "The course's question bank, newest first (its teachers)",
        params: IdParams,
        response: { 200: Type.Array(BankQuestion), ...signedInErrors },
      },
    },
    async (request) => bank.list(callerOf(request), request.params.id),
  );

  app.post(
    '/courses/:id/question-bank',
    {
      schema: {
        ...common,
        summary: "Save a question to the course's bank, to push in a later lesson (its teachers)",
        description: 'The body is a question as pushed to a lesson; a full bank (500) is 409.',
        params: IdParams,
        body: SaveBankQuestionBody,
        response: { 201: BankQuestion, ...signedInErrors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await bank.save(callerOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/courses/:id/question-bank/:qid',
    {
      schema: {
        ...common,
        summary: "Remove a question from the course's bank (its teachers)",
        params: LessonQuestionParams,
        response: { 204: Type.Null(), ...signedInErrors },
      },
    },
    async (request, reply) => {
      await bank.remove(callerOf(request), request.params.id, request.params.qid);
      return reply.status(204).send(null);
    },
  );
};
