import { MEMBER_EVENTS, onEvery, type LiveFeature } from '../../realtime/liveFeature';
import { selectProfile } from '../auth/authSlice';
import { classesApi } from './classesApi';
import { applyCourseUpdated, applyMemberEvent } from './memberEvents';

/** Classes' live handlers (DESIGN §11): rosters, join codes and a student's own memberships. */
export const classesLive: LiveFeature = {
  on: {
    'course:updated': ({ data }) => applyCourseUpdated(data),
    ...onEvery(MEMBER_EVENTS, applyMemberEvent),
    // Someone else renamed (a student of mine, or my teacher): every list that shows names loads
    // again (the gradebook's in grading/live.ts). Renames are rare: patching each cache by id would
    // be more code than it saves.
    'profile:updated':
      ({ data: profile }) =>
      (dispatch, getState) => {
        if (selectProfile(getState())?.id === profile.id) return;
        dispatch(classesApi.util.invalidateTags(['Members', 'Submission', 'Course']));
      },
  },
  refetch: () => (dispatch) => dispatch(classesApi.util.invalidateTags(['Members'])),
};
