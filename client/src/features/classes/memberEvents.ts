import type { Course, LiveEvent } from '@classwave/shared';
import { toast } from 'sonner';
import type { AppThunk } from '../../app/store';
import { upsertCourses } from '../courses/courseCache';
import { coursesApi } from '../courses/coursesApi';
import { archiveApi, placeCourse } from '../archive/archiveApi';
import { classesApi, dropCourse } from './classesApi';
import { upsertMember } from './rosterCache';
import { removedToastId } from './toastIds';

type MemberEvent = LiveEvent<'member:joined' | 'member:left' | 'member:removed' | 'member:restored'>;

/**
 * `course:updated` (DESIGN §11, §13): the course changes where it is shown, in the list and on its
 * page. The owner's copy carries the join code; a member's has none, and never gains one here.
 */

export const applyCourseUpdated =
  (course: Course): AppThunk =>
  (dispatch, getState) => {
    // Archived or unarchived (DESIGN §20): it moves between the course list and the past classes.
    // (The store's type knows the api's tags only as the features inject them.)
    const listed = (list: Course[] | undefined) => list?.some((c) => c.id === course.id) ?? false;
    const current = coursesApi.endpoints.getCourses.select(undefined);
    const past = archiveApi.endpoints.getPastCourses.select(undefined);
    const state = getState() as unknown as Parameters<typeof current>[0] & Parameters<typeof past>[0];
    if (listed(current(state).data) || listed(past(state).data)) {
      dispatch(placeCourse(course));
      return;
    }
    dispatch(
      coursesApi.util.updateQueryData('getCourses', undefined, (list) => {
        if (list.some((existing) => existing.id === course.id)) upsertCourses(list, [course]);
      }),
    );
    dispatch(
      coursesApi.util.updateQueryData('getCourse', course.id, (detail) => {
        detail.course = course;
      }),
    );
  };

/**
 * `member:*` (DESIGN §11) reach the course's teacher and the student concerned. The teacher's roster
 * takes the row as it is now. The student's own tabs follow their membership: joined (in another
 * tab) adds the course, left or removed takes it and its assignments off every screen at once, and
 * restored brings it back.
 */
export const applyMemberEvent =
  (event: MemberEvent): AppThunk =>
  (dispatch, getState) => {
    const { course, member } = event.data;
    const me = getState().auth.profile;
    if (me?.role === 'teacher') {
      dispatch(
        classesApi.util.updateQueryData('getMembers', course.id, (list) => upsertMember(list, member)),
      );
      // A student who left may have deleted their account (then they are in no roster at all): the
      // roster loads again to say which.
      if (event.type === 'member:left')
        dispatch(classesApi.util.invalidateTags([{ type: 'Members', id: course.id }]));
      return;
    }
    if (!me || member.student.id !== me.id) return;
    switch (event.type) {
      case 'member:joined':
      case 'member:restored':
        dispatch(
          coursesApi.util.updateQueryData('getCourses', undefined, (list) => upsertCourses(list, [course])),
        );
        // The course's assignments are not in the event: the lists that show them load again.
        dispatch(
          coursesApi.util.invalidateTags([
            { type: 'Assignment', id: 'LIST' },
            { type: 'Course', id: course.id },
            'Dashboard',
          ]),
        );
        if (event.type === 'member:restored') toast.success(`You are back in ${course.title}`);
        break;
      case 'member:left':
        dispatch(dropCourse(course.id));
        break;
      case 'member:removed':
        dispatch(dropCourse(course.id));
        toast.error(`You were removed from ${course.title}`, { id: removedToastId(course.id) });
        break;
    }
  };
