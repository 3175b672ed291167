import type { AppThunk } from '../../app/store';
import { isTeacher, type LiveFeature } from '../../realtime/liveFeature';
import { coursesApi } from '../courses/coursesApi';

/**
 * The dashboard's figures depend on dates and ownership: it loads again rather than being patched.
 * Through the courses' API, which declares the tag and is in the first chunk already: importing
 * dashboardApi here would pull the dashboard page's endpoints into the chunk every page loads.
 */
const refetchDashboard = (): AppThunk => (dispatch) =>
  dispatch(coursesApi.util.invalidateTags(['Dashboard']));

/** The dashboard's live handlers: the course and assignment changes that move its figures. */
export const dashboardLive: LiveFeature = {
  on: {
    'course:created': refetchDashboard,
    'course:deleted': refetchDashboard,
    'assignment:created': refetchDashboard,
    'assignment:updated': refetchDashboard,
    'assignment:deleted': refetchDashboard,
    // Work just submitted (in another tab, say) leaves the student's active figure.
    'submission:created': () => (dispatch, getState) => {
      if (!isTeacher(getState())) dispatch(refetchDashboard());
    },
    'submission:withdrawn': refetchDashboard,
  },
};
