import {
  isTeachersView,
  type AcceptedTeacherInvite,
  type CourseTeachers,
  type CourseTeachersForMembers,
  type InviteTeacherBody,
  type TeacherInvitePreview,
} from '@classwave/shared';
import type { AppThunk } from '../../app/store';
import { removeCourse, upsertCourses } from '../courses/courseCache';
import { coursesApi } from '../courses/coursesApi';

const path = (courseId: string) => `/courses/${encodeURIComponent(courseId)}/teachers`;
const invitePath = (token: string) => `/teacher-invites/${encodeURIComponent(token)}`;

const coTeacherQueries = coursesApi
  .enhanceEndpoints({ addTagTypes: ['CourseTeachers', 'TeacherInvite'] })
  .injectEndpoints({
    endpoints: (build) => ({
      /** A course's teachers (owner first) and open invitations: for its teachers (DESIGN §20). */
      getCourseTeachers: build.query<CourseTeachers, string>({
        query: (courseId) => path(courseId),
        providesTags: (_result, _error, courseId) => [{ type: 'CourseTeachers', id: courseId }],
      }),
      /** What a mailed invitation is for, before Accept. */
      getTeacherInvite: build.query<TeacherInvitePreview, string>({
        query: (token) => invitePath(token),
        providesTags: ['TeacherInvite'],
      }),
    }),
  });

/**
 * Writes a course's teacher list as the server sent it (an answer or `course:teachers`), and the
 * names on the course page's Instructor card with it. The members' view (a student's tab) has
 * names only: it goes to the card, never into the teachers' list, which a student cannot read.
 */
export const setCourseTeachers =
  (list: CourseTeachers | CourseTeachersForMembers): AppThunk =>
  (dispatch) => {
    if (isTeachersView(list))
      void dispatch(coTeacherQueries.util.upsertQueryData('getCourseTeachers', list.courseId, list));
    dispatch(
      coursesApi.util.updateQueryData('getCourse', list.courseId, (detail) => {
        detail.teachers = list.teachers.map(({ id, fullName, role }) => ({ id, fullName, role }));
      }),
    );
  };

/**
 * Co-teachers (DESIGN §20): the owner invites by e-mail and removes; the invited teacher accepts
 * from the mailed link. Answers are written into the cache that shows them; `course:teachers`
 * does the same in the other tabs.
 */
export const coTeachersApi = coTeacherQueries.injectEndpoints({
  endpoints: (build) => ({
    inviteTeacher: build.mutation<CourseTeachers, { courseId: string } & InviteTeacherBody>({
      query: ({ courseId, email }) => ({ url: path(courseId), method: 'POST', body: { email } }),
      async onQueryStarted(_args, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(setCourseTeachers(data));
      },
    }),
    removeTeacher: build.mutation<CourseTeachers, { courseId: string; userId: string }>({
      query: ({ courseId, userId }) => ({
        url: `${path(courseId)}/${encodeURIComponent(userId)}`,
        method: 'DELETE',
      }),
      async onQueryStarted(_args, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(setCourseTeachers(data));
      },
    }),
    /** The owner cancels an open invitation: its link stops working (DESIGN §20). */
    cancelTeacherInvite: build.mutation<CourseTeachers, { courseId: string; inviteId: string }>({
      query: ({ courseId, inviteId }) => ({
        url: `/courses/${encodeURIComponent(courseId)}/teacher-invites/${encodeURIComponent(inviteId)}`,
        method: 'DELETE',
      }),
      async onQueryStarted(_args, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(setCourseTeachers(data));
      },
    }),
    /**
     * A co-teacher leaves the course (their own id; 204): it leaves their lists at once, as the
     * `course:deleted` the server sends their other tabs does.
     */
    leaveTeaching: build.mutation<null, { courseId: string; userId: string }>({
      query: ({ courseId, userId }) => ({
        url: `${path(courseId)}/${encodeURIComponent(userId)}`,
        method: 'DELETE',
      }),
      async onQueryStarted({ courseId }, { dispatch, queryFulfilled }) {
        const { error } = await queryFulfilled.then(
          () => ({ error: undefined }),
          (failure: unknown) => ({ error: failure }),
        );
        if (error) return;
        dispatch(
          coursesApi.util.updateQueryData('getCourses', undefined, (list) => removeCourse(list, courseId)),
        );
        dispatch(coursesApi.util.invalidateTags([{ type: 'Assignment', id: 'LIST' }, 'Dashboard']));
      },
    }),
    /** Accepting puts the course in the teacher's list at once; its assignments load with it. */
    acceptTeacherInvite: build.mutation<AcceptedTeacherInvite, string>({
      query: (token) => ({ url: `${invitePath(token)}/accept`, method: 'POST' }),
      async onQueryStarted(_token, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(
          coursesApi.util.updateQueryData('getCourses', undefined, (list) =>
            upsertCourses(list, [data.course]),
          ),
        );
        dispatch(coursesApi.util.invalidateTags([{ type: 'Assignment', id: 'LIST' }, 'Dashboard']));
      },
    }),
  }),
});

export const {
  useGetCourseTeachersQuery,
  useGetTeacherInviteQuery,
  useInviteTeacherMutation,
  useRemoveTeacherMutation,
  useCancelTeacherInviteMutation,
  useLeaveTeachingMutation,
  useAcceptTeacherInviteMutation,
} = coTeachersApi;
