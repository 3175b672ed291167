import type { Assignment, CopyAssignmentBody, CopyCourseBody, Course } from '@classwave/shared';
import { api } from '../../api/api';
import type { AppThunk } from '../../app/store';
import { byDueDate, removeCourse, upsertCourses } from '../courses/courseCache';
import { coursesApi, dashboardTagUnlessFailed, TEACHING_TAGS } from '../courses/coursesApi';

/**
 * Archive, copy and reuse (DESIGN §20). An archived course leaves the course list for the past
 * classes; the answers and the live `course:updated` move it between the two cached lists.
 */
const pastQueries = api.enhanceEndpoints({ addTagTypes: TEACHING_TAGS }).injectEndpoints({
  endpoints: (build) => ({
    /** The caller's archived courses ("Past classes"), last archived first. */
    getPastCourses: build.query<Course[], void>({
      query: () => '/courses?archived=true',
      providesTags: [{ type: 'Course', id: 'PAST' }],
    }),
  }),
});

/** Puts a course in the list it now belongs to (current or past) and on its page, wherever cached. */
export const placeCourse =
  (course: Course): AppThunk =>
  (dispatch) => {
    const archived = course.archivedAt !== null;
    dispatch(
      coursesApi.util.updateQueryData('getCourses', undefined, (list) =>
        archived ? removeCourse(list, course.id) : upsertCourses(list, [course]),
      ),
    );
    dispatch(
      pastQueries.util.updateQueryData('getPastCourses', undefined, (list) => {
        if (archived) {
          removeCourse(list, course.id);
          list.unshift(course);
        } else removeCourse(list, course.id);
      }),
    );
    dispatch(
      coursesApi.util.updateQueryData('getCourse', course.id, (detail) => {
        detail.course = course;
      }),
    );
  };

/** Runs `place` with the answer once the request succeeded; a failure is the caller's to show. */
const placeAnswer =
  <A>(place: (data: Course, arg: A) => AppThunk) =>
  async (
    arg: A,
    {
      dispatch,
      queryFulfilled,
    }: { dispatch: (t: AppThunk) => unknown; queryFulfilled: Promise<{ data: Course }> },
  ) => {
    const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
    if (data) dispatch(place(data, arg));
  };

export const archiveApi = pastQueries.injectEndpoints({
  endpoints: (build) => ({
    archiveCourse: build.mutation<Course, string>({
      query: (courseId) => ({ url: `/courses/${encodeURIComponent(courseId)}/archive`, method: 'POST' }),
      invalidatesTags: dashboardTagUnlessFailed,
      onQueryStarted: placeAnswer((course) => placeCourse(course)),
    }),
    unarchiveCourse: build.mutation<Course, string>({
      query: (courseId) => ({ url: `/courses/${encodeURIComponent(courseId)}/unarchive`, method: 'POST' }),
      invalidatesTags: dashboardTagUnlessFailed,
      onQueryStarted: placeAnswer((course) => placeCourse(course)),
    }),
    /** A new course of the caller's, with the source's assignments, materials, rubrics and categories. */
    copyCourse: build.mutation<Course, { courseId: string; body: CopyCourseBody }>({
      query: ({ courseId, body }) => ({
        url: `/courses/${encodeURIComponent(courseId)}/copy`,
        method: 'POST',
        body,
      }),
      invalidatesTags: dashboardTagUnlessFailed,
      onQueryStarted: placeAnswer((course) => placeCourse(course)),
    }),
    /** An assignment of another course the caller teaches, copied into `body.courseId`. */
    copyAssignment: build.mutation<Assignment, { assignmentId: string; body: CopyAssignmentBody }>({
      query: ({ assignmentId, body }) => ({
        url: `/assignments/${encodeURIComponent(assignmentId)}/copy`,
        method: 'POST',
        body,
      }),
      invalidatesTags: dashboardTagUnlessFailed,
      async onQueryStarted({ body }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(
          coursesApi.util.updateQueryData('getCourse', body.courseId, (detail) => {
            if (detail.assignments.some((a) => a.id === data.id)) return;
            detail.assignments.push(data);
            detail.assignments.sort(byDueDate);
          }),
        );
      },
    }),
  }),
});

export const {
  useGetPastCoursesQuery,
  useArchiveCourseMutation,
  useUnarchiveCourseMutation,
  useCopyCourseMutation,
  useCopyAssignmentMutation,
} = archiveApi;
