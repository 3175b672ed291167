import type {
  NotificationPage,
  NotificationSettings,
  NotificationsReadData,
  ReadNotificationsBody,
  ReadNotificationsResponse,
} from '@classwave/shared';
import { api } from '../../api/api';
import type { AppThunk } from '../../app/store';
import { appendOlder, markNotificationsRead } from './notificationCache';
import { toastNotification } from './toastNotification';

/**
 * The inbox (DESIGN §14). `getNotifications` holds the bell's list: the newest page, with older
 * pages appended in place by `loadOlderNotifications`, and live events patching it.
 */
export const notificationsApi = api
  .enhanceEndpoints({ addTagTypes: ['Notifications', 'NotificationSettings'] })
  .injectEndpoints({
    endpoints: (build) => ({
      getNotifications: build.query<NotificationPage, void>({
        query: () => '/notifications',
        providesTags: ['Notifications'],
      }),
      getOlderNotifications: build.query<NotificationPage, string>({
        query: (before) => ({ url: '/notifications', params: { before } }),
        keepUnusedDataFor: 0,
      }),
      readNotifications: build.mutation<ReadNotificationsResponse, ReadNotificationsBody>({
        query: (body) => ({ url: '/notifications/read', method: 'POST', body }),
        // Read at once on screen; the server's count settles it, and a failure refetches the truth.
        async onQueryStarted(body, { dispatch, queryFulfilled }) {
          const ids = 'all' in body ? ('all' as const) : body.ids;
          const readAt = new Date().toISOString();
          dispatch(
            notificationsApi.util.updateQueryData('getNotifications', undefined, (page) =>
              markNotificationsRead(page, { ids, readAt }),
            ),
          );
          try {
            const { data } = await queryFulfilled;
            dispatch(
              notificationsApi.util.updateQueryData('getNotifications', undefined, (page) => {
                page.unreadCount = data.unreadCount;
              }),
            );
          } catch {
            dispatch(notificationsApi.util.invalidateTags(['Notifications']));
          }
        },
      }),
      getNotificationSettings: build.query<NotificationSettings, void>({
        query: () => '/me/notification-settings',
        providesTags: ['NotificationSettings'],
      }),
      updateNotificationSettings: build.mutation<NotificationSettings, NotificationSettings>({
        query: (body) => ({ url: '/me/notification-settings', method: 'PUT', body }),
        async onQueryStarted(_body, { dispatch, queryFulfilled }) {
          const { data } = await queryFulfilled.catch(() => ({ data: null }));
          if (data) {
            dispatch(notificationsApi.util.upsertQueryData('getNotificationSettings', undefined, data));
          }
        },
      }),
      reportTimeZone: build.mutation<NotificationSettings, string>({
        query: (timeZone) => ({ url: '/me/time-zone', method: 'PUT', body: { timeZone } }),
        async onQueryStarted(_zone, { dispatch, queryFulfilled }) {
          const { data } = await queryFulfilled.catch(() => ({ data: null }));
          if (data) {
            dispatch(notificationsApi.util.upsertQueryData('getNotificationSettings', undefined, data));
          }
        },
      }),
    }),
  });

/** Fetches the page older than the last one shown and appends it to the bell's list. */
export const loadOlderNotifications =
  (before: string): AppThunk<Promise<void>> =>
  async (dispatch) => {
    const request = dispatch(
      notificationsApi.endpoints.getOlderNotifications.initiate(before, {
        subscribe: false,
        forceRefetch: true,
      }),
    );
    const { data, error } = await request;
    if (error) throw error;
    if (data) {
      dispatch(
        notificationsApi.util.updateQueryData('getNotifications', undefined, (page) =>
          appendOlder(page, data),
        ),
      );
    }
  };

/**
 * When a tab loads its inbox after a new assignment: the server writes the class's entries just
 * after the assignment's event goes out, so a tab waits a moment, and each tab a different moment,
 * so a class of hundreds does not ask at the same instant. One more try if the entry is not there yet.
 */
export const ASSIGNMENT_ENTRY_WAIT = { firstMs: 500, spreadMs: 1500, againMs: 3000 };

/**
 * A new assignment in one of the student's classes: the server stores its inbox entry for every
 * member and sends no event of its own (one `assignment:created` to the class, not one per
 * member), so the bell's page loads again and the entry is toasted from it, as its own event would be.
 */
export const loadAssignmentNotification =
  (assignmentId: string, at: string): AppThunk<Promise<void>> =>
  async (dispatch) => {
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const load = async () => {
      const { data } = await dispatch(
        notificationsApi.endpoints.getNotifications.initiate(undefined, {
          subscribe: false,
          forceRefetch: true,
        }),
      );
      return data?.items.find((n) => n.kind === 'assignment_created' && n.assignmentId === assignmentId);
    };
    await wait(ASSIGNMENT_ENTRY_WAIT.firstMs + Math.random() * ASSIGNMENT_ENTRY_WAIT.spreadMs);
    let entry = await load();
    if (!entry) {
      await wait(ASSIGNMENT_ENTRY_WAIT.againMs);
      entry = await load();
    }
    if (entry) toastNotification(entry, at);
  };

/** `notifications:read` from another tab of this user. */
export const applyNotificationsRead =
  (data: NotificationsReadData): AppThunk =>
  (dispatch) => {
    dispatch(
      notificationsApi.util.updateQueryData('getNotifications', undefined, (page) =>
        markNotificationsRead(page, data),
      ),
    );
  };

export const {
  useGetNotificationsQuery,
  useReadNotificationsMutation,
  useGetNotificationSettingsQuery,
  useUpdateNotificationSettingsMutation,
} = notificationsApi;
