import type { CategoriesBody, CategoriesResponse } from '@classwave/shared';
import { gradingApi } from './gradingApi';

/**
 * A course's grade categories (DESIGN §17), its teacher's alone. Saving them changes totals
 * everywhere and may take assignments out of a deleted category: those reads load again.
 */
export const categoriesApi = gradingApi.enhanceEndpoints({ addTagTypes: ['Categories'] }).injectEndpoints({
  endpoints: (build) => ({
    getCategories: build.query<CategoriesResponse, string>({
      query: (courseId) => `/courses/${encodeURIComponent(courseId)}/categories`,
      providesTags: (_result, _error, courseId) => [{ type: 'Categories', id: courseId }],
    }),
    saveCategories: build.mutation<CategoriesResponse, { courseId: string; body: CategoriesBody }>({
      query: ({ courseId, body }) => ({
        url: `/courses/${encodeURIComponent(courseId)}/categories`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: (result, error, { courseId }) => (error || !result ? [] : categoriesChanged(courseId)),
    }),
  }),
});

/** What a change of a course's categories makes stale: its gradebook and categories, grades, assignments. */
export const categoriesChanged = (courseId: string) => [
  { type: 'Categories' as const, id: courseId },
  { type: 'Gradebook' as const, id: courseId },
  'Grades' as const,
  { type: 'Assignment' as const, id: 'LIST' },
];

export const { useGetCategoriesQuery, useSaveCategoriesMutation } = categoriesApi;
