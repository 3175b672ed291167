import type { LiveFeature } from '../../realtime/liveFeature';
import { coursesApi } from '../courses/coursesApi';
import { coTeachersApi, setCourseTeachers } from './coteachersApi';

/**
 * Co-teachers' live handlers (DESIGN §20): the Teachers section follows invitations, acceptances
 * and removals, and a student's Instructors card who teaches (the members' view); a removed
 * co-teacher's `course:deleted` (the course list handles it in courses/live) also takes the
 * course's assignments off their lists.
 */
export const coTeachersLive: LiveFeature = {
  on: {
    'course:teachers':
      ({ data }) =>
      (dispatch) =>
        dispatch(setCourseTeachers(data)),
    'course:deleted': () => (dispatch) =>
      dispatch(coursesApi.util.invalidateTags([{ type: 'Assignment', id: 'LIST' }])),
  },
  refetch: () => (dispatch) => dispatch(coTeachersApi.util.invalidateTags(['CourseTeachers'])),
};
