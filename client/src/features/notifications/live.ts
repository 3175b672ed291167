import { isTeacher, type LiveFeature } from '../../realtime/liveFeature';
import { upsertNotification } from './notificationCache';
import { applyNotificationsRead, loadAssignmentNotification, notificationsApi } from './notificationsApi';
import { toastNotification } from './toastNotification';

/** Notifications' live handlers (DESIGN §14): the bell's list and count, and the toasts. */
export const notificationsLive: LiveFeature = {
  on: {
    'notification:created':
      ({ data: notification, at }) =>
      (dispatch) => {
        // An entry re-sent without moving (a batch recounted after a take-back) is not news.
        let moved = true;
        dispatch(
          notificationsApi.util.updateQueryData('getNotifications', undefined, (page) => {
            const shown = page.items.find((n) => n.id === notification.id);
            moved = shown?.updatedAt !== notification.updatedAt;
            upsertNotification(page, notification);
          }),
        );
        if (moved) toastNotification(notification, at);
      },
    'notifications:read': ({ data }) => applyNotificationsRead(data),
    // A student's inbox entry for a new assignment comes with no event of its own.
    'assignment:created':
      ({ data: assignment, at }) =>
      (dispatch, getState) => {
        if (isTeacher(getState())) return;
        // Restored from the bin (no status for the class): its old entries are back, none is new.
        if (assignment.status === null) dispatch(notificationsApi.util.invalidateTags(['Notifications']));
        else void dispatch(loadAssignmentNotification(assignment.id, at));
      },
  },
  refetch: () => (dispatch) => dispatch(notificationsApi.util.invalidateTags(['Notifications'])),
};
