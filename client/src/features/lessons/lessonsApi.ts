import type {
  AnswerReceipt,
  BankQuestion,
  CreateQuestionBody,
  CurrentLesson,
  Lesson,
  LessonAnswerValue,
  LessonQuestion,
} from '@classwave/shared';
import { api } from '../../api/api';
import type { AppThunk } from '../../app/store';
import { applyOwnAnswer, upsertQuestion } from './lessonCache';

const id = encodeURIComponent;

const queries = api.enhanceEndpoints({ addTagTypes: ['Lessons', 'QuestionBank'] }).injectEndpoints({
  endpoints: (build) => ({
    /** The course's question bank (its teachers), newest first. */
    getQuestionBank: build.query<BankQuestion[], string>({
      query: (courseId) => `/courses/${id(courseId)}/question-bank`,
      providesTags: (_r, _e, courseId) => [{ type: 'QuestionBank', id: courseId }],
    }),
    saveToBank: build.mutation<BankQuestion, { courseId: string; body: CreateQuestionBody }>({
      query: ({ courseId, body }) => ({
        url: `/courses/${id(courseId)}/question-bank`,
        method: 'POST',
        body,
      }),
      async onQueryStarted({ courseId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled;
        dispatch(
          queries.util.updateQueryData('getQuestionBank', courseId, (bank) => {
            if (!bank.some((q) => q.id === data.id)) bank.unshift(data);
          }),
        );
      },
    }),
    removeFromBank: build.mutation<void, { courseId: string; questionId: string }>({
      query: ({ courseId, questionId }) => ({
        url: `/courses/${id(courseId)}/question-bank/${id(questionId)}`,
        method: 'DELETE',
      }),
      async onQueryStarted({ courseId, questionId }, { dispatch, queryFulfilled }) {
        await queryFulfilled;
        dispatch(
          queries.util.updateQueryData('getQuestionBank', courseId, (bank) =>
            bank.filter((q) => q.id !== questionId),
          ),
        );
      },
    }),
    /** Every live lesson of the caller's courses: the question overlay reads it on every page. */
    getLiveLessons: build.query<Lesson[], void>({
      query: () => '/lessons/live',
      providesTags: [{ type: 'Lessons', id: 'LIVE' }],
    }),
    /** A course's live lesson (null when none): where a late joiner or a reconnect lands. */
    getCurrentLesson: build.query<CurrentLesson, string>({
      query: (courseId) => `/courses/${id(courseId)}/lessons/current`,
      providesTags: (_r, _e, courseId) => [{ type: 'Lessons', id: `course:${courseId}` }],
    }),
    startLesson: build.mutation<Lesson, string>({
      query: (courseId) => ({ url: `/courses/${id(courseId)}/lessons`, method: 'POST' }),
      async onQueryStarted(courseId, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled;
        dispatch(queries.util.upsertQueryData('getCurrentLesson', courseId, { lesson: data }));
        dispatch(
          queries.util.updateQueryData('getLiveLessons', undefined, (list) => {
            if (!list.some((l) => l.id === data.id)) list.push(data);
          }),
        );
      },
    }),
    pushQuestion: build.mutation<LessonQuestion, { lesson: Lesson; body: CreateQuestionBody }>({
      query: ({ lesson, body }) => ({ url: `/lessons/${id(lesson.id)}/questions`, method: 'POST', body }),
      async onQueryStarted({ lesson }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled;
        dispatch(patchLesson(lesson.courseId, lesson.id, (l) => upsertQuestion(l, data)));
      },
    }),
    closeQuestion: build.mutation<LessonQuestion, { lesson: Lesson; questionId: string }>({
      query: ({ lesson, questionId }) => ({
        url: `/lessons/${id(lesson.id)}/questions/${id(questionId)}/close`,
        method: 'POST',
      }),
      async onQueryStarted({ lesson }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled;
        dispatch(patchLesson(lesson.courseId, lesson.id, (l) => upsertQuestion(l, data)));
      },
    }),
    endLesson: build.mutation<Lesson, { lesson: Lesson; gradebook: boolean }>({
      query: ({ lesson, gradebook }) => ({
        url: `/lessons/${id(lesson.id)}/end`,
        method: 'POST',
        body: { gradebook },
      }),
      async onQueryStarted({ lesson }, { dispatch, queryFulfilled }) {
        await queryFulfilled;
        dispatch(lessonEnded(lesson.courseId, lesson.id));
      },
    }),
    answerQuestion: build.mutation<
      AnswerReceipt,
      { lesson: Lesson; questionId: string; answer: LessonAnswerValue }
    >({
      query: ({ lesson, questionId, answer }) => ({
        url: `/lessons/${id(lesson.id)}/questions/${id(questionId)}/answer`,
        method: 'PUT',
        body: { answer },
      }),
      async onQueryStarted({ lesson }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled;
        dispatch(patchLesson(lesson.courseId, lesson.id, (l) => applyOwnAnswer(l, data)));
      },
    }),
  }),
});

export const lessonsApi = queries;
export const {
  useGetLiveLessonsQuery,
  useGetCurrentLessonQuery,
  useStartLessonMutation,
  usePushQuestionMutation,
  useCloseQuestionMutation,
  useEndLessonMutation,
  useAnswerQuestionMutation,
  useGetQuestionBankQuery,
  useSaveToBankMutation,
  useRemoveFromBankMutation,
} = queries;

/** Patches the lesson wherever it is cached: the live list and its course's current lesson. */
export const patchLesson =
  (courseId: string, lessonId: string, patch: (lesson: Lesson) => void): AppThunk =>
  (dispatch) => {
    dispatch(
      queries.util.updateQueryData('getLiveLessons', undefined, (list) => {
        const lesson = list.find((l) => l.id === lessonId);
        if (lesson) patch(lesson);
      }),
    );
    dispatch(
      queries.util.updateQueryData('getCurrentLesson', courseId, (current) => {
        if (current.lesson?.id === lessonId) patch(current.lesson);
      }),
    );
  };

/** A lesson that has started: into the live list and its course's current lesson. */
export const lessonStarted =
  (lesson: Lesson): AppThunk =>
  (dispatch) => {
    dispatch(
      queries.util.updateQueryData('getLiveLessons', undefined, (list) => {
        if (!list.some((l) => l.id === lesson.id)) list.push(lesson);
      }),
    );
    dispatch(
      queries.util.updateQueryData('getCurrentLesson', lesson.courseId, (current) => {
        if (!current.lesson || current.lesson.endedAt !== null) current.lesson = lesson;
      }),
    );
  };

/** A lesson that has ended: out of the live list; its course has no current lesson any more. */
export const lessonEnded =
  (courseId: string, lessonId: string): AppThunk =>
  (dispatch) => {
    dispatch(
      queries.util.updateQueryData('getLiveLessons', undefined, (list) =>
        list.filter((l) => l.id !== lessonId),
      ),
    );
    dispatch(
      queries.util.updateQueryData('getCurrentLesson', courseId, (current) => {
        if (current.lesson?.id === lessonId) current.lesson = null;
      }),
    );
  };
