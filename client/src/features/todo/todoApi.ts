import type { Todo } from '@classwave/shared';
import { api } from '../../api/api';

/** GET /api/todo (DESIGN §14): live, no cache — refetched on every change that can move an item. */
export const todoApi = api.enhanceEndpoints({ addTagTypes: ['Todo'] }).injectEndpoints({
  endpoints: (build) => ({
    getTodo: build.query<Todo, void>({
      query: () => '/todo',
      providesTags: ['Todo'],
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useGetTodoQuery } = todoApi;
