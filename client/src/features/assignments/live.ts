import { workStatus, type Assignment, type OwnSubmission, type Submission } from '@classwave/shared';
import { serverNow } from '../../api/serverClock';
import type { AppThunk } from '../../app/store';
import { isTeacher, type LiveFeature } from '../../realtime/liveFeature';
import { coursesApi } from '../courses/coursesApi';
import {
  clearOwnSubmission,
  removeAssignment,
  removeSubmission,
  setOwnSubmission,
  upsertAssignments,
  upsertSubmission,
} from './assignmentCache';
import {
  applyGradedSubmission,
  assignmentsApi,
  dropMissingGrade,
  patchCourseDetails,
  storeAssignment,
} from './assignmentsApi';

type Patch = (list: Assignment[]) => void;

const patchList = (patch: Patch) => assignmentsApi.util.updateQueryData('getAssignments', undefined, patch);

const patchCourse = (courseId: string, patch: Patch) =>
  coursesApi.util.updateQueryData('getCourse', courseId, (detail) => patch(detail.assignments));

/** The assignment list and every course page this tab has loaded. */
const patchEverywhere =
  (patch: Patch): AppThunk =>
  (dispatch, getState) => {
    dispatch(patchList(patch));
    patchCourseDetails(dispatch, getState(), patch);
  };

/** Changes an assignment's submission list, if this tab has it, and answers how many it now holds. */
const changeSubmissions =
  (assignmentId: string, change: (list: Submission[]) => void): AppThunk<number | undefined> =>
  (dispatch) => {
    let count: number | undefined;
    dispatch(
      assignmentsApi.util.updateQueryData('getSubmissions', assignmentId, (list) => {
        change(list);
        // Grades for missing work are in the list too; they are no submissions (DESIGN §17).
        count = list.filter((s) => s.submittedAt !== null).length;
      }),
    );
    return count;
  };

/** A student's own submission as their cached lists keep it, with the status it gives the assignment. */
const recordOwn =
  (submission: Submission): AppThunk =>
  (dispatch) => {
    const own: OwnSubmission = {
      id: submission.id,
      submittedAt: submission.submittedAt,
      grade: submission.grade,
      feedback: submission.feedback,
      gradedAt: submission.gradedAt,
      returnedAt: submission.returnedAt,
      late: submission.late,
    };
    dispatch(
      patchEverywhere((list) => {
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
      }),
    );
  };

/**
 * Assignments' live handlers (DESIGN §8): the assignment list and each course page's assignments
 * change in place. A teacher's copies count submissions and work to grade; a student's hold their
 * own submission and its status.
 */
export const assignmentsLive: LiveFeature = {
  on: {
    'assignment:created':
      ({ data }) =>
      (dispatch, getState) => {
        // Restored from the bin (DESIGN §17): the class's view has no status, as the student may
        // have work on it; their lists load again with it.
        if (!isTeacher(getState()) && data.status === null) {
          dispatch(
            coursesApi.util.invalidateTags([
              { type: 'Assignment', id: 'LIST' },
              { type: 'Course', id: data.courseId },
            ]),
          );
          return;
        }
        // The teacher's list counts submissions; a student's shows their own submission instead.
        const assignment: Assignment = {
          ...data,
          submission: null,
          submissionCount: isTeacher(getState()) ? 0 : null,
        };
        dispatch(patchList((list) => upsertAssignments(list, [assignment])));
        dispatch(patchCourse(assignment.courseId, (list) => upsertAssignments(list, [assignment])));
      },
    // Each viewer is sent their own view (counts for the teacher, status for a student).
    'assignment:updated':
      ({ data }) =>
      (dispatch) =>
        storeAssignment(dispatch, data),
    // A cell with no submission: a grade for missing work taken back in another tab leaves the list.
    'gradebook:cell':
      ({ data }) =>
      (dispatch) =>
        dispatch(dropMissingGrade(data)),
    // The student's own due date (DESIGN §20): theirs now, with the status it gives (the server's clock).
    'assignment:extended':
      ({ data }) =>
      (dispatch, getState) => {
        if (isTeacher(getState())) return;
        dispatch(
          patchEverywhere((list) => {
            const target = list.find((a) => a.id === data.assignmentId);
            if (!target) return;
            target.dueDate = data.dueDate ?? data.classDueDate;
            target.extendedFrom = data.dueDate === null ? null : data.classDueDate;
            target.status = workStatus(
              {
                dueDate: target.dueDate,
                excused: target.status === 'excused',
                submission: target.submission,
              },
              serverNow(),
              'student',
            );
          }),
        );
      },
    'assignment:deleted':
      ({ data: { id, courseId } }) =>
      (dispatch) => {
        dispatch(patchList((list) => removeAssignment(list, id)));
        dispatch(patchCourse(courseId, (list) => removeAssignment(list, id)));
      },
    'submission:created':
      ({ data: submission }) =>
      (dispatch, getState) => {
        if (!isTeacher(getState())) {
          dispatch(recordOwn(submission));
          return;
        }
        const count = dispatch(
          changeSubmissions(submission.assignmentId, (list) => upsertSubmission(list, submission)),
        );
        dispatch(
          patchEverywhere((list) => {
            const target = list.find((a) => a.id === submission.assignmentId);
            if (!target) return;
            // With the submissions open, their number is known exactly; otherwise one more arrived.
            target.submissionCount = count ?? (target.submissionCount ?? 0) + 1;
            // A submit onto work graded as missing keeps its grade: a returned one is nothing to grade
            // (a held one comes as ungraded here, and its submission:graded takes it off again).
            if (submission.grade === null) target.needsGrading = (target.needsGrading ?? 0) + 1;
          }),
        );
      },
    // A student hears it only once the grade is theirs to see (DESIGN §13).
    'submission:graded':
      ({ data: submission }) =>
      (dispatch, getState) => {
        if (isTeacher(getState())) dispatch(applyGradedSubmission(submission));
        else dispatch(recordOwn(submission));
      },
    'submission:withdrawn':
      ({ data: { id, assignmentId } }) =>
      (dispatch, getState) => {
        if (!isTeacher(getState())) {
          dispatch(patchEverywhere((list) => clearOwnSubmission(list, assignmentId, id)));
          return;
        }
        const count = dispatch(changeSubmissions(assignmentId, (list) => removeSubmission(list, id)));
        dispatch(
          patchList((list) => {
            const target = list.find((a) => a.id === assignmentId);
            if (!target) return;
            target.submissionCount = count ?? Math.max(0, (target.submissionCount ?? 1) - 1);
            // Only ungraded work can be taken back: one fewer to grade.
            if (target.needsGrading !== null) target.needsGrading = Math.max(0, target.needsGrading - 1);
          }),
        );
      },
  },
};
