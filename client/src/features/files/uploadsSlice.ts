import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { UploadProgressEvent } from '@classwave/shared';

/** Students' uploads in progress as their teacher's tabs hear them (DESIGN §18), by file id. */
export interface UploadsState {
  byFile: Record<string, UploadProgressEvent>;
}

const initialState: UploadsState = { byFile: {} };

export const uploadsSlice = createSlice({
  name: 'uploads',
  initialState,
  reducers: {
    uploadMoved(state, action: PayloadAction<UploadProgressEvent>) {
      const progress = action.payload;
      if (progress.received >= progress.size) delete state.byFile[progress.fileId];
      else state.byFile[progress.fileId] = progress;
    },
    uploadFinished(state, action: PayloadAction<string>) {
      delete state.byFile[action.payload];
    },
  },
  selectors: {
    selectUploadsOf: (state, assignmentId: string) =>
      Object.values(state.byFile).filter((upload) => upload.assignmentId === assignmentId),
  },
});

export const { uploadMoved, uploadFinished } = uploadsSlice.actions;
export const { selectUploadsOf } = uploadsSlice.selectors;

/** "2 files, 45 %": how far the uploads under way have got, all bytes together. */
export function uploadsSummary(uploads: readonly UploadProgressEvent[]): string | null {
  if (uploads.length === 0) return null;
  const size = uploads.reduce((sum, u) => sum + u.size, 0);
  const received = uploads.reduce((sum, u) => sum + u.received, 0);
  const percent = size > 0 ? Math.floor((received / size) * 100) : 0;
  return `${uploads.length} ${uploads.length === 1 ? 'file' : 'files'}, ${percent} %`;
}
