import type { AppThunk } from '../../app/store';
import { isTeacher, type LiveFeature } from '../../realtime/liveFeature';
import { OWN_SUBMISSION_TAG, submissionsApi } from './submissionsApi';

/** A student's view of their work on `assignmentId` loads again (only if a dialog holds it). */
const refetchOwn =
  (assignmentId: string): AppThunk =>
  (dispatch, getState) => {
    if (isTeacher(getState())) return;
    dispatch(submissionsApi.util.invalidateTags([{ type: OWN_SUBMISSION_TAG, id: assignmentId }]));
  };

/**
 * The student's own submission view (DESIGN §17): a submit or take-back (from another tab), a grade
 * returned, or a due date moved (late or not) changes it. It carries a history the events do not,
 * so it loads again rather than being patched; it is only cached while its dialog is open.
 */
export const submissionsLive: LiveFeature = {
  on: {
    'submission:created': ({ data }) => refetchOwn(data.assignmentId),
    'submission:graded': ({ data }) => refetchOwn(data.assignmentId),
    'submission:withdrawn': ({ data }) => refetchOwn(data.assignmentId),
    'assignment:updated': ({ data }) => refetchOwn(data.id),
  },
  refetch: () => (dispatch) => dispatch(submissionsApi.util.invalidateTags([OWN_SUBMISSION_TAG])),
};
