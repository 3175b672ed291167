import { MEMBER_EVENTS, onEvery, type LiveFeature } from '../../realtime/liveFeature';
import { classesApi } from './classesApi';
import { applyCourseUpdated, applyMemberEvent } from './memberEvents';

/** Classes' live handlers (DESIGN §11): rosters, join codes and a student's own memberships. */
export const classesLive: LiveFeature = {
  on: {
    'course:updated': ({ data }) => applyCourseUpdated(data),
    ...onEvery(MEMBER_EVENTS, applyMemberEvent),
  },
  refetch: () => (dispatch) => dispatch(classesApi.util.invalidateTags(['Members'])),
};
