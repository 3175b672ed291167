import type {
  Assignment,
  Gradebook,
  LiveEvent,
  LiveEventType,
  OwnSubmission,
  Submission,
} from '@classwave/shared';
import type { AppThunk } from '../app/store';
import { profileLoaded } from '../features/auth/authSlice';
import { applyGradedSubmission, assignmentsApi } from '../features/assignments/assignmentsApi';
import {
  clearOwnSubmission,
  removeAssignment,
  setOwnSubmission,
  upsertAssignments,
} from '../features/assignments/assignmentCache';
import { removeCourse, upsertCourses } from '../features/courses/courseCache';
import { coursesApi, TEACHING_TAGS } from '../features/courses/coursesApi';
import { classesApi } from '../features/classes/classesApi';
import { applyCourseUpdated, applyMemberEvent } from '../features/classes/memberEvents';
import { draftSavedElsewhere } from '../features/drafts/draftEvents';
import { calendarApi } from '../features/calendar/calendarApi';
import { upsertNotification } from '../features/notifications/notificationCache';
import {
  applyNotificationsRead,
  loadAssignmentNotification,
  notificationsApi,
} from '../features/notifications/notificationsApi';
import { toastNotification } from '../features/notifications/toastNotification';
import { todoApi } from '../features/todo/todoApi';

/**
 * Events that move a to-do item or a due date: the to-do list and the calendar are refetched on
 * them (they depend on membership, dates and the viewer's own work).
 */
const WORK_EVENTS: ReadonlySet<LiveEventType> = new Set<LiveEventType>([
  'assignment:created',
  'assignment:deleted',
  'assignment:updated',
  'submission:created',
  'submission:graded',
  'submission:withdrawn',
  'member:joined',
  'member:left',
  'member:removed',
  'member:restored',
  'course:deleted',
]);
import { cellFromSubmission, gradingApi, storeAssignment, upsertCell } from '../features/grading/gradingApi';

/** Refetch everything on screen: after a gap the server no longer keeps, or on the first connect. */
export const refetchEverything = (): AppThunk => (dispatch) => {
  dispatch(coursesApi.util.invalidateTags([...TEACHING_TAGS]));
  dispatch(classesApi.util.invalidateTags(['Members']));
  dispatch(notificationsApi.util.invalidateTags(['Notifications']));
  dispatch(refetchWork());
};

/** The to-do list and the calendar's visible range, fetched again. */
const refetchWork = (): AppThunk => (dispatch) => {
  dispatch(todoApi.util.invalidateTags(['Todo']));
  dispatch(calendarApi.util.invalidateTags(['Calendar']));
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
    // A course's gradebook changes shape with its assignments and members: it loads again.
    const refetchGradebook = (courseId: string) =>
      dispatch(gradingApi.util.invalidateTags([{ type: 'Gradebook', id: courseId }]));
    const patchGradebooksOf = (assignmentId: string, patch: (gradebook: Gradebook) => void) => {
      for (const courseId of gradingApi.util.selectCachedArgsForQuery(getState(), 'getGradebook')) {
        dispatch(
          gradingApi.util.updateQueryData('getGradebook', courseId, (gradebook) => {
            if (gradebook.assignments.some((a) => a.id === assignmentId)) patch(gradebook);
          }),
        );
      }
    };

    if (WORK_EVENTS.has(event.type)) dispatch(refetchWork());

    switch (event.type) {
      case 'notification:created': {
        const notification = (event as LiveEvent<'notification:created'>).data;
        // An entry re-sent without moving (a batch recounted after a take-back) is not news.
        let moved = true;
        dispatch(
          notificationsApi.util.updateQueryData('getNotifications', undefined, (page) => {
            const shown = page.items.find((n) => n.id === notification.id);
            moved = shown?.updatedAt !== notification.updatedAt;
            upsertNotification(page, notification);
          }),
        );
        if (moved) toastNotification(notification, event.at);
        break;
      }
      case 'notifications:read': {
        dispatch(applyNotificationsRead((event as LiveEvent<'notifications:read'>).data));
        break;
      }
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
        if (role === 'teacher') refetchGradebook((event as LiveEvent<'member:joined'>).data.course.id);
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
        if (role === 'teacher') refetchGradebook(assignment.courseId);
        else void dispatch(loadAssignmentNotification(assignment.id, event.at));
        refetchDashboard();
        break;
      }
      case 'assignment:updated': {
        // Each viewer is sent their own view (counts for the teacher, status for a student).
        const assignment = (event as LiveEvent<'assignment:updated'>).data;
        storeAssignment(dispatch, assignment);
        if (role === 'teacher') refetchGradebook(assignment.courseId);
        else dispatch(gradingApi.util.invalidateTags(['Grades']));
        refetchDashboard();
        break;
      }
      case 'gradebook:cell': {
        // A cell changed with no submission event (an excuse given or taken back).
        const cell = (event as LiveEvent<'gradebook:cell'>).data;
        patchGradebooksOf(cell.assignmentId, (gradebook) => upsertCell(gradebook, cell));
        break;
      }
      case 'assignment:panel': {
        const panel = (event as LiveEvent<'assignment:panel'>).data;
        dispatch(
          gradingApi.util.updateQueryData('getPanel', panel.assignmentId, (draft) => {
            Object.assign(draft, panel);
          }),
        );
        break;
      }
      case 'assignment:deleted': {
        const { id, courseId } = (event as LiveEvent<'assignment:deleted'>).data;
        patchAssignments((list) => removeAssignment(list, id));
        patchCourse(courseId, (list) => removeAssignment(list, id));
        if (role === 'teacher') refetchGradebook(courseId);
        refetchDashboard();
        break;
      }
      case 'submission:created':
      case 'submission:graded': {
        const submission = (event as LiveEvent<'submission:created' | 'submission:graded'>).data;
        if (role === 'teacher') {
          patchGradebooksOf(submission.assignmentId, (gradebook) =>
            upsertCell(gradebook, cellFromSubmission(submission)),
          );
          if (event.type === 'submission:graded') {
            dispatch(applyGradedSubmission(submission));
            break;
          }
          let count: number | undefined;
          dispatch(
            assignmentsApi.util.updateQueryData('getSubmissions', submission.assignmentId, (list) => {
              upsertSubmission(list, submission);
              count = list.length;
            }),
          );
          const oneMore = (list: Assignment[]) => {
            const target = list.find((a) => a.id === submission.assignmentId);
            if (!target) return;
            // With the submissions open, their number is known exactly; otherwise one more arrived.
            target.submissionCount = count ?? (target.submissionCount ?? 0) + 1;
            target.needsGrading = (target.needsGrading ?? 0) + 1;
          };
          patchAssignments(oneMore);
          for (const courseId of coursesApi.util.selectCachedArgsForQuery(getState(), 'getCourse')) {
            patchCourse(courseId, oneMore);
          }
        } else {
          // A student hears `submission:graded` only once the grade is theirs to see (DESIGN §13).
          const own: OwnSubmission = {
            id: submission.id,
            submittedAt: submission.submittedAt,
            grade: submission.grade,
            feedback: submission.feedback,
            gradedAt: submission.gradedAt,
            returnedAt: submission.returnedAt,
            late: submission.late,
          };
          const record = (list: Assignment[]) => {
            setOwnSubmission(list, submission.assignmentId, own);
            const target = list.find((a) => a.id === submission.assignmentId);
            if (target) {
              target.status =
                own.grade !== null && own.returnedAt !== null
                  ? 'returned'
                  : own.late !== null
                    ? 'late'
                    : 'submitted';
            }
          };
          patchAssignments(record);
          for (const courseId of coursesApi.util.selectCachedArgsForQuery(getState(), 'getCourse')) {
            patchCourse(courseId, record);
          }
          dispatch(gradingApi.util.invalidateTags(['Grades']));
          // Work just submitted (in another tab, say) leaves the student's active figure.
          if (event.type === 'submission:created') refetchDashboard();
        }
        break;
      }
      case 'submission:withdrawn': {
        const { id, assignmentId, courseId } = (event as LiveEvent<'submission:withdrawn'>).data;
        if (role === 'teacher') {
          refetchGradebook(courseId);
          let count: number | undefined;
          dispatch(
            assignmentsApi.util.updateQueryData('getSubmissions', assignmentId, (list) => {
              const index = list.findIndex((s) => s.id === id);
              if (index !== -1) list.splice(index, 1);
              count = list.length;
            }),
          );
          patchAssignments((list) => {
            const target = list.find((a) => a.id === assignmentId);
            if (!target) return;
            target.submissionCount = count ?? Math.max(0, (target.submissionCount ?? 1) - 1);
            // Only ungraded work can be taken back: one fewer to grade.
            if (target.needsGrading !== null) target.needsGrading = Math.max(0, target.needsGrading - 1);
          });
        } else {
          patchAssignments((list) => clearOwnSubmission(list, assignmentId, id));
          for (const courseId of coursesApi.util.selectCachedArgsForQuery(getState(), 'getCourse')) {
            patchCourse(courseId, (list) => clearOwnSubmission(list, assignmentId, id));
          }
        }
        refetchDashboard();
        break;
      }
      case 'draft:saved': {
        draftSavedElsewhere((event as LiveEvent<'draft:saved'>).data);
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
