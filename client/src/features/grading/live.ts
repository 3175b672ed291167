import type { Gradebook, LiveEvent, LiveEventType } from '@classwave/shared';
import type { AppThunk } from '../../app/store';
import {
  isTeacher,
  MEMBER_EVENTS,
  onEvery,
  type LiveFeature,
  type LiveHandler,
} from '../../realtime/liveFeature';
import { categoriesApi, categoriesChanged } from './categoriesApi';
import { gradingApi, upsertCell, upsertSubmissionCell } from './gradingApi';

const refetchGrades = () => gradingApi.util.invalidateTags(['Grades']);

// A course's gradebook changes shape with its assignments and members: it loads again.
const refetchGradebook = (courseId: string) =>
  gradingApi.util.invalidateTags([{ type: 'Gradebook', id: courseId }]);

/** For a teacher, the gradebook of the event's course loads again. */
const refetchGradebookOf =
  <T extends LiveEventType>(courseOf: (event: LiveEvent<T>) => string): LiveHandler<T> =>
  (event) =>
  (dispatch, getState) => {
    if (isTeacher(getState())) dispatch(refetchGradebook(courseOf(event)));
  };

/** Patches every cached gradebook that has the assignment as a column. */
const patchGradebooksOf =
  (assignmentId: string, patch: (gradebook: Gradebook) => void): AppThunk =>
  (dispatch, getState) => {
    for (const courseId of gradingApi.util.selectCachedArgsForQuery(getState(), 'getGradebook')) {
      dispatch(
        gradingApi.util.updateQueryData('getGradebook', courseId, (gradebook) => {
          if (gradebook.assignments.some((a) => a.id === assignmentId)) patch(gradebook);
        }),
      );
    }
  };

/** A submission's cell in the teacher's gradebook; a student's returned grades load again. */
const onSubmission: LiveHandler<'submission:created' | 'submission:graded'> =
  ({ data: submission }) =>
  (dispatch, getState) => {
    if (isTeacher(getState())) {
      dispatch(
        patchGradebooksOf(submission.assignmentId, (gradebook) =>
          upsertSubmissionCell(gradebook, submission),
        ),
      );
    } else {
      dispatch(refetchGrades());
    }
  };

/** Grading's live handlers (DESIGN §13): the teacher's gradebook and panel, a student's grades. */
export const gradingLive: LiveFeature = {
  on: {
    ...onEvery(
      MEMBER_EVENTS,
      refetchGradebookOf(({ data }) => data.course.id),
    ),
    'assignment:created': refetchGradebookOf(({ data }) => data.courseId),
    // A student of this teacher renamed: the gradebooks and panels that list them load again.
    'profile:updated': () => (dispatch, getState) => {
      if (isTeacher(getState())) dispatch(gradingApi.util.invalidateTags(['Gradebook', 'Panel']));
    },
    'assignment:updated':
      ({ data: assignment }) =>
      (dispatch, getState) => {
        dispatch(isTeacher(getState()) ? refetchGradebook(assignment.courseId) : refetchGrades());
      },
    'assignment:deleted': refetchGradebookOf(({ data }) => data.courseId),
    // One student's own due date (DESIGN §20): their cell says it; a student's grades load again.
    'assignment:extended':
      ({ data }) =>
      (dispatch, getState) => {
        if (!isTeacher(getState())) {
          dispatch(refetchGrades());
          return;
        }
        dispatch(
          patchGradebooksOf(data.assignmentId, (gradebook) => {
            const cell = gradebook.cells.find(
              (c) => c.assignmentId === data.assignmentId && c.studentId === data.studentId,
            );
            if (!cell) return;
            if (data.dueDate) cell.dueDate = data.dueDate;
            else delete cell.dueDate;
          }),
        );
      },
    // Reweighted, renamed or deleted categories: totals change for everyone in the course.
    'course:categories':
      ({ data }) =>
      (dispatch) =>
        dispatch(categoriesApi.util.invalidateTags(categoriesChanged(data.courseId))),
    // A cell changed with no submission event (an excuse given or taken back).
    'gradebook:cell':
      ({ data: cell }) =>
      (dispatch) =>
        dispatch(patchGradebooksOf(cell.assignmentId, (gradebook) => upsertCell(gradebook, cell))),
    'assignment:panel':
      ({ data: panel }) =>
      (dispatch) =>
        dispatch(
          gradingApi.util.updateQueryData('getPanel', panel.assignmentId, (draft) => {
            Object.assign(draft, panel);
          }),
        ),
    'submission:created': onSubmission,
    'submission:graded': onSubmission,
    'submission:withdrawn': refetchGradebookOf(({ data }) => data.courseId),
  },
};
