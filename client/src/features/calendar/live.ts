import type { AppThunk } from '../../app/store';
import { onEvery, WORK_EVENTS, type LiveFeature } from '../../realtime/liveFeature';
import { calendarApi } from './calendarApi';

const refetchCalendar = (): AppThunk => (dispatch) => dispatch(calendarApi.util.invalidateTags(['Calendar']));

/** The calendar's visible range loads again on any change that can move a due date (DESIGN §14). */
export const calendarLive: LiveFeature = {
  on: onEvery(WORK_EVENTS, refetchCalendar),
  refetch: refetchCalendar,
};
