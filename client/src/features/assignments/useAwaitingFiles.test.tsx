import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Attachment, Attachments } from '../files/useAttachments';
import { useAwaitingFiles } from './useAwaitingFiles';

const file: Attachment = {
  id: 'a1',
  name: 'photo.jpg',
  size: 10,
  type: 'image/jpeg',
  phase: 'waiting',
  sent: 0,
  fileId: null,
  blob: new Blob(['0123456789']),
};
const files = (loaded: boolean, items: Attachment[]) => ({ loaded, items }) as unknown as Attachments;

describe('useAwaitingFiles: a Submit pressed while files upload', () => {
  it('is remembered across a reload while the files are still on the device', () => {
    const first = renderHook(() => useAwaitingFiles('u1', 'as1', files(true, [file])));
    expect(first.result.current[0]).toBe(false);
    act(() => first.result.current[1](true));
    expect(first.result.current[0]).toBe(true);
    first.unmount();

    // The page again: nothing held until the device's files are read, then the press holds again.
    const { result, rerender } = renderHook(
      ({ loaded }) => useAwaitingFiles('u1', 'as1', files(loaded, loaded ? [file] : [])),
      {
        initialProps: { loaded: false },
      },
    );
    expect(result.current[0]).toBe(false);
    rerender({ loaded: true });
    expect(result.current[0]).toBe(true);
    // Another assignment, or another account on the device, is not waiting.
    expect(renderHook(() => useAwaitingFiles('u1', 'as2', files(true, [file]))).result.current[0]).toBe(
      false,
    );
    expect(renderHook(() => useAwaitingFiles('u2', 'as1', files(true, [file]))).result.current[0]).toBe(
      false,
    );
  });

  it('is forgotten once the files are gone, and when the submit goes', () => {
    const { result, unmount } = renderHook(() => useAwaitingFiles('u1', 'as3', files(true, [file])));
    act(() => result.current[1](true));
    unmount();
    // Removed (or handed in) meanwhile: the device has no files for it, so nothing waits.
    renderHook(() => useAwaitingFiles('u1', 'as3', files(true, [])));
    expect(renderHook(() => useAwaitingFiles('u1', 'as3', files(true, [file]))).result.current[0]).toBe(
      false,
    );

    const sent = renderHook(() => useAwaitingFiles('u1', 'as4', files(true, [file])));
    act(() => sent.result.current[1](true));
    act(() => sent.result.current[1](false));
    sent.unmount();
    expect(renderHook(() => useAwaitingFiles('u1', 'as4', files(true, [file]))).result.current[0]).toBe(
      false,
    );
  });
});
