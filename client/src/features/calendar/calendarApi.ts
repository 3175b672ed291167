import type { CalendarFeed, CalendarItems } from '@classwave/shared';
import { api } from '../../api/api';

export interface CalendarRange {
  from: string;
  to: string;
}

/** The calendar's due dates in a range, and the personal ICS feed URL (DESIGN §14). */
export const calendarApi = api
  .enhanceEndpoints({ addTagTypes: ['Calendar', 'CalendarFeed'] })
  .injectEndpoints({
    endpoints: (build) => ({
      getCalendar: build.query<CalendarItems, CalendarRange>({
        query: ({ from, to }) => ({ url: '/calendar', params: { from, to } }),
        providesTags: ['Calendar'],
      }),
      getCalendarFeed: build.query<CalendarFeed, void>({
        query: () => '/calendar/feed',
        providesTags: ['CalendarFeed'],
      }),
      /** A new token: the old URL stops answering at once. */
      createCalendarFeed: build.mutation<CalendarFeed, void>({
        query: () => ({ url: '/calendar/feed', method: 'POST' }),
        async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
          const { data } = await queryFulfilled.catch(() => ({ data: null }));
          if (data) dispatch(calendarApi.util.upsertQueryData('getCalendarFeed', undefined, data));
        },
      }),
    }),
  });

export const { useGetCalendarQuery, useGetCalendarFeedQuery, useCreateCalendarFeedMutation } = calendarApi;
