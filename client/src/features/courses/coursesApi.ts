import type { Course, CourseDetail, CreateCourseBody } from '@classwave/shared';
import { api } from '../../api/api';
import { removeCourse, upsertCourses } from './courseCache';

/** Tags: a course list ('LIST'), each course detail by id, and the dashboard (refetched as a fallback). */
export const TEACHING_TAGS = ['Course', 'Assignment', 'Submission', 'Dashboard'] as const;

/** Dashboards count courses and assignments; after a change of either they are refetched. */
export const dashboardTagUnlessFailed = (_result: unknown, error: unknown) =>
  error ? [] : [{ type: 'Dashboard' as const }];

const coursesQueries = api.enhanceEndpoints({ addTagTypes: TEACHING_TAGS }).injectEndpoints({
  endpoints: (build) => ({
    /** Every course, newest first. */
    getCourses: build.query<Course[], void>({
      query: () => '/courses',
      providesTags: [{ type: 'Course', id: 'LIST' }],
    }),
    /** One course with its assignments by due date; 404 when there is no such course. */
    getCourse: build.query<CourseDetail, string>({
      query: (courseId) => `/courses/${encodeURIComponent(courseId)}`,
      providesTags: (_result, _error, courseId) => [{ type: 'Course', id: courseId }],
    }),
  }),
});

/**
 * Courses (spec §2). Mutations write the server's answer straight into the cached lists, so the
 * screens change without a refetch; the live-event bridge patches the same caches by the same names.
 */
export const coursesApi = coursesQueries.injectEndpoints({
  endpoints: (build) => ({
    createCourse: build.mutation<Course, CreateCourseBody>({
      query: (body) => ({ url: '/courses', method: 'POST', body }),
      invalidatesTags: dashboardTagUnlessFailed,
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(
          coursesQueries.util.updateQueryData('getCourses', undefined, (list) => upsertCourses(list, [data])),
        );
      },
    }),
    createSampleCourses: build.mutation<Course[], void>({
      /** One new sandbox course holding three sample assignments, no student in it (DESIGN §17). */
      query: () => ({ url: '/courses/samples', method: 'POST' }),
      invalidatesTags: dashboardTagUnlessFailed,
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(
          coursesQueries.util.updateQueryData('getCourses', undefined, (list) => upsertCourses(list, data)),
        );
      },
    }),
    /** Refused with 409 while the course still has assignments. */
    deleteCourse: build.mutation<void, string>({
      query: (courseId) => ({ url: `/courses/${encodeURIComponent(courseId)}`, method: 'DELETE' }),
      invalidatesTags: dashboardTagUnlessFailed,
      async onQueryStarted(courseId, { dispatch, queryFulfilled }) {
        const ok = await queryFulfilled.then(
          () => true,
          () => false,
        );
        if (!ok) return;
        dispatch(
          coursesQueries.util.updateQueryData('getCourses', undefined, (list) =>
            removeCourse(list, courseId),
          ),
        );
      },
    }),
  }),
});

export const {
  useGetCoursesQuery,
  useGetCourseQuery,
  useCreateCourseMutation,
  useCreateSampleCoursesMutation,
  useDeleteCourseMutation,
} = coursesApi;
