import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  AnswerBody,
  AnswerReceipt,
  CreateQuestionBody,
  CurrentLesson,
  EndLessonBody,
  IdParams,
  Lesson,
  LessonQuestion,
  LessonQuestionParams,
} from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import type { LessonService } from './service.js';

/** Live lessons (DESIGN §21): start, push, close (reveal), end, answer, and the views of a lesson. */
export const lessonRoutes: FastifyPluginAsyncTypebox<{ lessons: LessonService }> = async (
  app,
  { lessons },
) => {
  const common = { tags: ['lessons'], security: bearerSecurity };

  app.post(
    '/courses/:id/lessons',
    {
      schema: {
        ...common,
        summary: "Start the course's live lesson (its teachers; one live lesson per course)",
        description:
          'A second start while one is live: 409 lesson_in_progress. Members hear `lesson:started`.',
        params: IdParams,
        response: { 201: Lesson, ...signedInErrors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await lessons.start(callerOf(request), request.params.id)),
  );

  app.get(
    '/courses/:id/lessons/current',
    {
      schema: {
        ...common,
        summary: "The course's live lesson, or null (its teachers and active members)",
        description:
          'Where a late joiner or a reconnecting tab lands: the current question, in the caller’s view.',
        params: IdParams,
        response: { 200: CurrentLesson, ...signedInErrors },
      },
    },
    async (request) => lessons.current(callerOf(request), request.params.id),
  );

  app.get(
    '/lessons/live',
    {
      schema: {
        ...common,
        summary: 'Every live lesson of the caller’s courses (for the question overlay on any page)',
        response: { 200: Type.Array(Lesson), ...signedInErrors },
      },
    },
    async (request) => lessons.live(callerOf(request)),
  );

  app.get(
    '/lessons/:id',
    {
      schema: {
        ...common,
        summary: 'A lesson in the caller’s view (its teachers and active members)',
        description:
          'A student sees no right answer, no results and no classmate’s answer before a question is closed; ' +
          'only their own answer.',
        params: IdParams,
        response: { 200: Lesson, ...signedInErrors },
      },
    },
    async (request) => lessons.get(callerOf(request), request.params.id),
  );

  app.post(
    '/lessons/:id/questions',
    {
      schema: {
        ...common,
        summary: 'Push a question to the class (its teachers); the open one is closed and revealed first',
        params: IdParams,
        body: CreateQuestionBody,
        response: { 201: LessonQuestion, ...signedInErrors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await lessons.push(callerOf(request), request.params.id, request.body)),
  );

  app.post(
    '/lessons/:id/questions/:qid/close',
    {
      schema: {
        ...common,
        summary: 'Close a question, which reveals its right answer and results (its teachers)',
        params: LessonQuestionParams,
        response: { 200: LessonQuestion, ...signedInErrors },
      },
    },
    async (request) => lessons.close(callerOf(request), request.params.id, request.params.qid),
  );

  app.post(
    '/lessons/:id/end',
    {
      schema: {
        ...common,
        summary: 'End the lesson (its teachers), optionally into the gradebook as a graded assignment',
        params: IdParams,
        body: Type.Optional(EndLessonBody),
        response: { 200: Lesson, ...signedInErrors },
      },
    },
    async (request) => lessons.end(callerOf(request), request.params.id, request.body ?? {}),
  );

  app.put(
    '/lessons/:id/questions/:qid/answer',
    {
      schema: {
        ...common,
        summary: 'Answer the open question (member students; the last answer before closing counts)',
        description:
          'A closed question: 409 question_closed. The answer must fit the question’s kind (400 naming it).',
        params: LessonQuestionParams,
        body: AnswerBody,
        response: { 200: AnswerReceipt, ...signedInErrors },
      },
    },
    async (request) => lessons.answer(callerOf(request), request.params.id, request.params.qid, request.body),
  );
};
