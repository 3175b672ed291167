import type { LiveFeature } from '../../realtime/liveFeature';
import { removeCourse, upsertCourses } from './courseCache';
import { coursesApi, TEACHING_TAGS } from './coursesApi';

/** Courses' live handlers (DESIGN §8): the course list changes in place. */
export const coursesLive: LiveFeature = {
  on: {
    'course:created':
      ({ data: course }) =>
      (dispatch) =>
        dispatch(
          coursesApi.util.updateQueryData('getCourses', undefined, (list) => upsertCourses(list, [course])),
        ),
    'course:deleted':
      ({ data: { id } }) =>
      (dispatch) => {
        dispatch(coursesApi.util.updateQueryData('getCourses', undefined, (list) => removeCourse(list, id)));
        // An open course page learns it is gone ('Course not found').
        dispatch(coursesApi.util.invalidateTags([{ type: 'Course', id }]));
      },
  },
  refetch: () => (dispatch) => dispatch(coursesApi.util.invalidateTags([...TEACHING_TAGS])),
};
