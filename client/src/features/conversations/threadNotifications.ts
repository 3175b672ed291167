import type { Notification, ThreadRef } from '@classwave/shared';
import type { AppThunk, RootState } from '../../app/store';
import { notificationsApi } from '../notifications/notificationsApi';

/**
 * A private comment notifies the other side (DESIGN §14, §19) with a link naming its thread:
 * `/assignments?open=<assignment>&thread=<student>`. The student's unread badge counts those
 * entries in the inbox the bell already keeps live (one request for the page rather than one per
 * assignment card), and reading the thread marks them read, so the bell and the badge clear together.
 */

/** The thread a notification's link names, if it is a private comment's. */
export function threadOfNotification(notification: Notification): ThreadRef | null {
  if (notification.kind !== 'thread_comment') return null;
  const params = new URL(notification.link, 'http://app.invalid').searchParams;
  const assignmentId = params.get('open');
  const studentId = params.get('thread');
  return assignmentId && studentId ? { assignmentId, studentId } : null;
}

/** The bell's loaded inbox (the store's type knows the api's tags only as the features inject them). */
function inbox(state: RootState) {
  const select = notificationsApi.endpoints.getNotifications.select();
  return select(state as unknown as Parameters<typeof select>[0]).data?.items ?? [];
}

const inThread = (notification: Notification, ref: ThreadRef) => {
  const named = threadOfNotification(notification);
  return named?.assignmentId === ref.assignmentId && named.studentId === ref.studentId;
};

/** Unread private-comment notifications for one thread, in the bell's loaded inbox. */
export const selectThreadUnread = (state: RootState, ref: ThreadRef): number =>
  inbox(state).filter((n) => n.readAt === null && inThread(n, ref)).length;

/** The thread was read: its notifications are read too. */
export const readThreadNotifications =
  (ref: ThreadRef): AppThunk =>
  (dispatch, getState) => {
    const ids = inbox(getState())
      .filter((n) => n.readAt === null && inThread(n, ref))
      .map((n) => n.id);
    if (ids.length > 0) void dispatch(notificationsApi.endpoints.readNotifications.initiate({ ids }));
  };
