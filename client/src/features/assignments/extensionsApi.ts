import type { Extension } from '@classwave/shared';
import { gradingApi } from '../grading/gradingApi';

/** One student's due date on one assignment (DESIGN §20), set by the course's teachers. */
export interface ExtensionArgs {
  assignmentId: string;
  studentId: string;
  /** The course, whose gradebook (which lists every student's due date) loads again. */
  courseId: string;
}

const extensionsApi = gradingApi.injectEndpoints({
  endpoints: (build) => ({
    setExtension: build.mutation<Extension, ExtensionArgs & { dueDate: string }>({
      query: ({ assignmentId, studentId, dueDate }) => ({
        url: `/assignments/${encodeURIComponent(assignmentId)}/extensions/${encodeURIComponent(studentId)}`,
        method: 'PUT',
        body: { dueDate },
      }),
      invalidatesTags: (_result, error, { courseId }) => (error ? [] : [{ type: 'Gradebook', id: courseId }]),
    }),
    removeExtension: build.mutation<void, ExtensionArgs>({
      query: ({ assignmentId, studentId }) => ({
        url: `/assignments/${encodeURIComponent(assignmentId)}/extensions/${encodeURIComponent(studentId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_result, error, { courseId }) => (error ? [] : [{ type: 'Gradebook', id: courseId }]),
    }),
  }),
});

export const { useSetExtensionMutation, useRemoveExtensionMutation } = extensionsApi;
