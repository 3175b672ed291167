import type { LiveFeature } from '../../realtime/liveFeature';
import { RUBRIC_TAG, rubricsApi } from './rubricsApi';

/**
 * A rubric written or removed (DESIGN §17) comes as `assignment:updated`: the rubric loads again
 * where a dialog shows it (it is cached only while one does), so a student reading it before
 * submitting sees the one they will be graded by.
 */
export const rubricsLive: LiveFeature = {
  on: {
    'assignment:updated':
      ({ data }) =>
      (dispatch) =>
        dispatch(rubricsApi.util.invalidateTags([{ type: RUBRIC_TAG, id: data.id }])),
  },
  refetch: () => (dispatch) => dispatch(rubricsApi.util.invalidateTags([RUBRIC_TAG])),
};
