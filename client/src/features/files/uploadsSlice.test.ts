import { describe, expect, it } from 'vitest';
import { formatFileSize } from './fileSize';
import { uploadFinished, uploadMoved, uploadsSlice, uploadsSummary } from './uploadsSlice';

const progress = (fileId: string, received: number, size: number) => ({
  fileId,
  assignmentId: 'a1',
  studentId: 's1',
  name: `${fileId}.jpg`,
  received,
  size,
});

describe("the teacher's uploads under way (DESIGN §18)", () => {
  it('sums the files moving and forgets each once stored', () => {
    let state = uploadsSlice.reducer(undefined, uploadMoved(progress('f1', 10, 100)));
    state = uploadsSlice.reducer(state, uploadMoved(progress('f2', 80, 100)));
    expect(uploadsSummary(Object.values(state.byFile))).toBe('2 files, 45 %');
    state = uploadsSlice.reducer(state, uploadMoved(progress('f2', 100, 100)));
    expect(uploadsSummary(Object.values(state.byFile))).toBe('1 file, 10 %');
    state = uploadsSlice.reducer(state, uploadFinished('f1'));
    expect(uploadsSummary(Object.values(state.byFile))).toBeNull();
  });

  it('says sizes as people read them', () => {
    expect(formatFileSize(1)).toBe('1 byte');
    expect(formatFileSize(820)).toBe('820 bytes');
    expect(formatFileSize(34 * 1024)).toBe('34 KB');
    expect(formatFileSize(4.2 * 1024 * 1024)).toBe('4.2 MB');
    expect(formatFileSize(50 * 1024 * 1024)).toBe('50 MB');
  });
});
