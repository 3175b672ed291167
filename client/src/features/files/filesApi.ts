import type { AssignmentFiles } from '@classwave/shared';
import { api } from '../../api/api';

export const ASSIGNMENT_FILES_TAG = 'AssignmentFiles' as const;

export interface AssignmentFilesArgs {
  assignmentId: string;
  /** The teacher: whose feedback files to list. */
  studentId?: string;
}

/**
 * An assignment's materials and one student's feedback files (DESIGN §18), as the server lets the
 * caller see them. Loaded where shown; a `file:ready` or a removal loads them again.
 */
export const filesApi = api.enhanceEndpoints({ addTagTypes: [ASSIGNMENT_FILES_TAG] }).injectEndpoints({
  endpoints: (build) => ({
    getAssignmentFiles: build.query<AssignmentFiles, AssignmentFilesArgs>({
      query: ({ assignmentId, studentId }) => ({
        url: `/assignments/${encodeURIComponent(assignmentId)}/files`,
        params: studentId ? { studentId } : undefined,
      }),
      providesTags: (_result, _error, { assignmentId }) => [{ type: ASSIGNMENT_FILES_TAG, id: assignmentId }],
      keepUnusedDataFor: 0,
    }),
    removeFile: build.mutation<void, { id: string; assignmentId: string }>({
      query: ({ id }) => ({ url: `/files/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, { assignmentId }) => [
        { type: ASSIGNMENT_FILES_TAG, id: assignmentId },
      ],
    }),
  }),
});

export const { useGetAssignmentFilesQuery, useRemoveFileMutation } = filesApi;

/** Loads an assignment's files again wherever they are shown. */
export const refetchAssignmentFiles = (assignmentId: string) =>
  filesApi.util.invalidateTags([{ type: ASSIGNMENT_FILES_TAG, id: assignmentId }]);
