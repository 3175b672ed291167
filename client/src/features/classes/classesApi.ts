import type { JoinBody, JoinCodeBody, JoinCodeState, JoinPreview, JoinResponse } from '@classwave/shared';
import type { FetchBaseQueryError, FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import type { AppThunk } from '../../app/store';
import { removeAssignment } from '../assignments/assignmentCache';
import { assignmentsApi } from '../assignments/assignmentsApi';
import { removeCourse, upsertCourses } from '../courses/courseCache';
import { coursesApi } from '../courses/coursesApi';
import { upsertMember, type RosterMember } from './rosterCache';

/** A failed call, with the `Retry-After` of a 429 (in seconds) when the server sent one. */
export type ClassesError = FetchBaseQueryError & { retryAfterSeconds?: number };

/** Keeps the Retry-After header, which the error body alone would lose (the dialog shows the wait). */
function withRetryAfter(error: FetchBaseQueryError, meta: FetchBaseQueryMeta | undefined): ClassesError {
  const header = meta?.response?.headers.get('retry-after');
  const seconds = header ? Number(header) : NaN;
  return Number.isFinite(seconds) && seconds > 0 ? { ...error, retryAfterSeconds: seconds } : error;
}

export interface MemberArgs {
  courseId: string;
  studentId: string;
}

const path = (courseId: string) => `/courses/${encodeURIComponent(courseId)}`;

const classesQueries = coursesApi
  .enhanceEndpoints({ addTagTypes: ['Members', 'JoinPreview'] })
  .injectEndpoints({
    endpoints: (build) => ({
      /** What a join link leads to (DESIGN §11); keyed by the code as typed, the server normalises it. */
      getJoinPreview: build.query<JoinPreview, string>({
        query: (code) => `/join/${encodeURIComponent(code)}`,
        providesTags: ['JoinPreview'],
      }),
      /** A course's roster (its teacher only): every student who ever joined, with their status. */
      getMembers: build.query<RosterMember[], string>({
        query: (courseId) => `${path(courseId)}/members`,
        providesTags: (_result, _error, courseId) => [{ type: 'Members', id: courseId }],
      }),
    }),
  });

/** Patches a course's cached roster. */
const patchRoster = (courseId: string, patch: (list: RosterMember[]) => void) =>
  classesQueries.util.updateQueryData('getMembers', courseId, patch);

/**
 * Classes and membership (DESIGN §11). Like the other features, a mutation writes the server's answer
 * into the caches that show it; the live events patch the same caches for the other tabs.
 */
export const classesApi = classesQueries.injectEndpoints({
  endpoints: (build) => ({
    /** Joins by code; 200 with the course again when already a member. */
    joinCourse: build.mutation<JoinResponse, JoinBody>({
      query: (body) => ({ url: '/courses/join', method: 'POST', body }),
      transformErrorResponse: withRetryAfter,
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(
          coursesApi.util.updateQueryData('getCourses', undefined, (list) =>
            upsertCourses(list, [data.course]),
          ),
        );
        // The course's assignments are not in the answer: the lists that show them load again.
        dispatch(
          classesQueries.util.invalidateTags([
            { type: 'Assignment', id: 'LIST' },
            'Dashboard',
            'JoinPreview',
          ]),
        );
      },
    }),
    /** The student leaves a course: it and its assignments drop off their screens. */
    leaveCourse: build.mutation<void, string>({
      query: (courseId) => ({ url: `${path(courseId)}/leave`, method: 'POST' }),
      async onQueryStarted(courseId, { dispatch, queryFulfilled }) {
        const ok = await queryFulfilled.then(
          () => true,
          () => false,
        );
        if (ok) dispatch(dropCourse(courseId));
      },
    }),
    /** The teacher removes a student (status 'removed'); answers the roster row as it now is. */
    removeMember: build.mutation<RosterMember, MemberArgs>({
      query: ({ courseId, studentId }) => ({
        url: `${path(courseId)}/members/${encodeURIComponent(studentId)}`,
        method: 'DELETE',
      }),
      async onQueryStarted({ courseId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(patchRoster(courseId, (list) => upsertMember(list, data)));
      },
    }),
    /** The teacher brings a removed student back; answers the roster row as it now is. */
    restoreMember: build.mutation<RosterMember, MemberArgs>({
      query: ({ courseId, studentId }) => ({
        url: `${path(courseId)}/members/${encodeURIComponent(studentId)}/restore`,
        method: 'POST',
      }),
      async onQueryStarted({ courseId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(patchRoster(courseId, (list) => upsertMember(list, data)));
      },
    }),
    /** Reset the code (the old one stops at once) or turn joining off or on. */
    changeJoinCode: build.mutation<JoinCodeState, { courseId: string } & JoinCodeBody>({
      query: ({ courseId, action }) => ({
        url: `${path(courseId)}/join-code`,
        method: 'POST',
        body: { action },
      }),
      async onQueryStarted({ courseId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(setJoinCodeState(courseId, data));
      },
    }),
  }),
});

/** Writes a course's new code and switch into the course list and the course page. */
export const setJoinCodeState =
  (courseId: string, state: JoinCodeState): AppThunk =>
  (dispatch) => {
    dispatch(
      coursesApi.util.updateQueryData('getCourses', undefined, (list) => {
        const course = list.find((candidate) => candidate.id === courseId);
        if (course) Object.assign(course, state);
      }),
    );
    dispatch(
      coursesApi.util.updateQueryData('getCourse', courseId, (detail) => {
        Object.assign(detail.course, state);
      }),
    );
  };

/**
 * Takes a course the student no longer belongs to off every screen: the course list, the
 * assignment list, and an open course page (which reloads and says the course is not there).
 */
export const dropCourse =
  (courseId: string): AppThunk =>
  (dispatch) => {
    dispatch(
      coursesApi.util.updateQueryData('getCourses', undefined, (list) => removeCourse(list, courseId)),
    );
    dispatch(
      assignmentsApi.util.updateQueryData('getAssignments', undefined, (list) => {
        for (const assignment of list.filter((candidate) => candidate.courseId === courseId)) {
          removeAssignment(list, assignment.id);
        }
      }),
    );
    dispatch(coursesApi.util.invalidateTags([{ type: 'Course', id: courseId }, 'Dashboard']));
  };

export const {
  useGetJoinPreviewQuery,
  useGetMembersQuery,
  useJoinCourseMutation,
  useLeaveCourseMutation,
  useRemoveMemberMutation,
  useRestoreMemberMutation,
  useChangeJoinCodeMutation,
} = classesApi;
