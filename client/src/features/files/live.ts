import type { LiveFeature } from '../../realtime/liveFeature';
import { refetchAssignmentFiles } from './filesApi';
import { uploadFinished, uploadMoved } from './uploadsSlice';

/** Attachments' live events (DESIGN §18): a teacher's view of uploads under way. */
export const filesLive: LiveFeature = {
  on: {
    'upload:progress':
      ({ data }) =>
      (dispatch) =>
        dispatch(uploadMoved(data)),
    'file:ready':
      ({ data }) =>
      (dispatch) => {
        dispatch(uploadFinished(data.file.id));
        // Materials and feedback are listed by assignment (a submission's come with the work).
        if (data.purpose === 'assignment' || data.purpose === 'feedback')
          dispatch(refetchAssignmentFiles(data.assignmentId));
      },
  },
};
