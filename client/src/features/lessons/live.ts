import type { LiveFeature } from '../../realtime/liveFeature';
import { applyOwnAnswer, applyTally, upsertQuestion } from './lessonCache';
import { lessonEnded, lessonStarted, lessonsApi, patchLesson } from './lessonsApi';

/**
 * Live lessons' handlers (DESIGN §21): each event patches the cached lesson in place, so a pushed
 * question opens on every page at once and the teacher's results grow answer by answer.
 */
export const lessonsLive: LiveFeature = {
  on: {
    'lesson:started':
      ({ data }) =>
      (dispatch) =>
        dispatch(lessonStarted(data)),
    'lesson:question':
      ({ data }) =>
      (dispatch) =>
        dispatch(patchLesson(data.courseId, data.lessonId, (l) => upsertQuestion(l, data))),
    'lesson:closed':
      ({ data }) =>
      (dispatch) =>
        dispatch(patchLesson(data.courseId, data.lessonId, (l) => upsertQuestion(l, data))),
    'lesson:tally':
      ({ data }) =>
      (dispatch) =>
        dispatch(patchLesson(data.courseId, data.lessonId, (l) => applyTally(l, data))),
    'lesson:answer':
      ({ data }) =>
      (dispatch) =>
        dispatch(patchLesson(data.courseId, data.lessonId, (l) => applyOwnAnswer(l, data))),
    'lesson:ended':
      ({ data }) =>
      (dispatch) =>
        dispatch(lessonEnded(data.courseId, data.id)),
  },
  refetch: () => (dispatch) => dispatch(lessonsApi.util.invalidateTags(['Lessons'])),
};
