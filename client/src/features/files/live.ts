import type { LiveFeature } from '../../realtime/liveFeature';
import { refetchAssignmentFiles } from './filesApi';
import { uploadFinished, uploadMoved } from './uploadsSlice';

/** Attachments' live events (DESIGN §18): uploads under way, files ready and files taken off. */
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
    // Taken off by its uploader: an upload under way leaves the panel, a list loads again.
    'file:deleted':
      ({ data }) =>
      (dispatch) => {
        dispatch(uploadFinished(data.fileId));
        if (data.purpose === 'assignment' || data.purpose === 'feedback')
          dispatch(refetchAssignmentFiles(data.assignmentId));
      },
  },
};
