import type { Assignment, LiveEvent, Submission } from '@classwave/shared';
import type { AppThunk } from '../app/store';
import { profileLoaded } from '../features/auth/authSlice';
import { assignmentsApi } from '../features/assignments/assignmentsApi';
import {
  removeAssignment,
  setOwnSubmission,
  upsertAssignments,
} from '../features/assignments/assignmentCache';
import { removeCourse, upsertCourses } from '../features/courses/courseCache';
import { coursesApi, TEACHING_TAGS } from '../features/courses/coursesApi';
import { classesApi } from '../features/classes/classesApi';
import { applyCourseUpdated, applyMemberEvent } from '../features/classes/memberEvents';

/** Refetch everything on screen: after a gap the server no longer keeps, or on the first connect. */
export const refetchEverything = (): AppThunk => (dispatch) => {
  dispatch(coursesApi.util.invalidateTags([...TEACHING_TAGS]));
  dispatch(classesApi.util.invalidateTags(['Members']));
};

/** Newest first, as GET /api/assignments/:id/submissions answers. */
function upsertSubmission(list: Submission[], submission: Submission): void {
  const index = list.findIndex((s) => s.id === submission.id);
  if (index === -1) list.unshift(submission);
  else list[index] = submission;
}

/**
 * Applies one live event to the RTK Query cache in place (DESIGN §8): the lists, course details,
 * counts and badges that show it change without a refetch. The dashboard's figures depend on
 * dates and ownership, so it alone is refetched.
 */
export const applyLiveEvent =
  (event: LiveEvent): AppThunk =>
  (dispatch, getState) => {
    const state = getState();
    const role = state.auth.profile?.role;
    const patchAssignments = (patch: (list: Assignment[]) => void) =>
      dispatch(assignmentsApi.util.updateQueryData('getAssignments', undefined, patch));
    const patchCourse = (courseId: string, patch: (assignments: Assignment[]) => void) =>
      dispatch(coursesApi.util.updateQueryData('getCourse', courseId, (detail) => patch(detail.assignments)));
    const refetchDashboard = () => dispatch(coursesApi.util.invalidateTags(['Dashboard']));

    switch (event.type) {
      case 'course:created': {
        const course = (event as LiveEvent<'course:created'>).data;
        dispatch(
          coursesApi.util.updateQueryData('getCourses', undefined, (list) => upsertCourses(list, [course])),
        );
        refetchDashboard();
        break;
      }
      case 'course:deleted': {
        const { id } = (event as LiveEvent<'course:deleted'>).data;
        dispatch(coursesApi.util.updateQueryData('getCourses', undefined, (list) => removeCourse(list, id)));
        // An open course page learns it is gone ('Course not found').
        dispatch(coursesApi.util.invalidateTags([{ type: 'Course', id }]));
        refetchDashboard();
        break;
      }
      case 'course:updated': {
        dispatch(applyCourseUpdated((event as LiveEvent<'course:updated'>).data));
        break;
      }
      case 'member:joined':
      case 'member:left':
      case 'member:removed':
      case 'member:restored': {
        dispatch(
          applyMemberEvent(
            event as LiveEvent<'member:joined' | 'member:left' | 'member:removed' | 'member:restored'>,
          ),
        );
        break;
      }
      case 'assignment:created': {
        const data = (event as LiveEvent<'assignment:created'>).data;
        // The teacher's list counts submissions; a student's shows their own submission instead.
        const assignment: Assignment = {
          ...data,
          submission: null,
          submissionCount: role === 'teacher' ? 0 : null,
        };
        patchAssignments((list) => upsertAssignments(list, [assignment]));
        patchCourse(assignment.courseId, (list) => upsertAssignments(list, [assignment]));
        refetchDashboard();
        break;
      }
      case 'assignment:deleted': {
        const { id, courseId } = (event as LiveEvent<'assignment:deleted'>).data;
        patchAssignments((list) => removeAssignment(list, id));
        patchCourse(courseId, (list) => removeAssignment(list, id));
        refetchDashboard();
        break;
      }
      case 'submission:created':
      case 'submission:graded': {
        const submission = (event as LiveEvent<'submission:created' | 'submission:graded'>).data;
        if (role === 'teacher') {
          let count: number | undefined;
          dispatch(
            assignmentsApi.util.updateQueryData('getSubmissions', submission.assignmentId, (list) => {
              upsertSubmission(list, submission);
              count = list.length;
            }),
          );
          if (event.type === 'submission:created') {
            patchAssignments((list) => {
              const target = list.find((a) => a.id === submission.assignmentId);
              // With the submissions open, their number is known exactly; otherwise one more arrived.
              if (target) target.submissionCount = count ?? (target.submissionCount ?? 0) + 1;
            });
          }
        } else {
          const own = {
            id: submission.id,
            submittedAt: submission.submittedAt,
            grade: submission.grade,
            feedback: submission.feedback,
            gradedAt: submission.gradedAt,
          };
          patchAssignments((list) => setOwnSubmission(list, submission.assignmentId, own));
          for (const courseId of coursesApi.util.selectCachedArgsForQuery(getState(), 'getCourse')) {
            patchCourse(courseId, (list) => setOwnSubmission(list, submission.assignmentId, own));
          }
          // Work just submitted (in another tab, say) leaves the student's active figure.
          if (event.type === 'submission:created') refetchDashboard();
        }
        break;
      }
      case 'profile:updated': {
        // Only the user's own tabs hear it: the name in the header and on Settings follows.
        const profile = (event as LiveEvent<'profile:updated'>).data;
        if (state.auth.profile?.id === profile.id) dispatch(profileLoaded(profile));
        break;
      }
    }
  };
