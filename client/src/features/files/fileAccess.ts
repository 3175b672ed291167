import type { FileSummary } from '@classwave/shared';
import { useEffect, useState } from 'react';
import { BlobRequestFailed, fetchBlob } from '../../api/fetchBlob';
import { useAppDispatch } from '../../app/hooks';
import { saveFile } from '../../components/saveFile';
import type { AppDispatch } from '../../app/store';

/**
 * Images and PDFs are shown in the app (DESIGN §18); every other type, HTML and SVG included, is only
 * downloaded. HEIC (an iPhone's photos) is tried as it is: the browsers of the phones that take them
 * show it, others say they cannot, and it is downloaded instead; no converter is shipped to every
 * browser for it.
 */
export const previewable = (type: string) =>
  [
    'image/jpeg',
    'image/png',
    'image/webp',
    'image/gif',
    'image/heic',
    'image/heif',
    'application/pdf',
  ].includes(type);

/**
 * A file's bytes through GET /api/files/:id, as the session may read them (the server decides by
 * the parent's rules; an expired token is refreshed on the way). The blob takes the type the server
 * sniffed, never the name's.
 */
export async function fetchFile(dispatch: AppDispatch, id: string, inline: boolean): Promise<Blob> {
  try {
    return await dispatch(fetchBlob(`/files/${encodeURIComponent(id)}${inline ? '?inline=1' : ''}`));
  } catch (error) {
    throw new Error(
      error instanceof BlobRequestFailed && error.status === 404
        ? 'This file is no longer there.'
        : 'The file could not be loaded.',
    );
  }
}

/** Saves a file under its own name. */
export async function downloadFile(dispatch: AppDispatch, file: FileSummary): Promise<void> {
  saveFile(await fetchFile(dispatch, file.id, false), file.name);
}

/** Every file handed in for an assignment, one zip with a folder per student (its teacher only). */
export async function downloadSubmissionsZip(
  dispatch: AppDispatch,
  assignment: { id: string; title: string },
): Promise<void> {
  const zip = await dispatch(
    fetchBlob(`/assignments/${encodeURIComponent(assignment.id)}/submissions.zip`),
  ).catch(() => {
    throw new Error('The files could not be downloaded.');
  });
  // The title as a file name: no path separators or characters a file system refuses.
  const name =
    [...assignment.title]
      .map((c) => (c < ' ' || '\\/:*?"<>|'.includes(c) ? ' ' : c))
      .join('')
      .trim() || 'submissions';
  saveFile(zip, `${name}.zip`);
}

/** An object URL of a previewable file's bytes while `enabled`; released when no longer shown. */
export function useFileUrl(file: FileSummary | null, enabled = true) {
  const dispatch = useAppDispatch();
  const [state, setState] = useState<{ url: string | null; error: string | null }>({
    url: null,
    error: null,
  });
  const id = file && previewable(file.type) ? file.id : null;
  useEffect(() => {
    if (!id || !enabled) return;
    let url: string | null = null;
    let cancelled = false;
    setState({ url: null, error: null });
    fetchFile(dispatch, id, true).then(
      (blob) => {
        if (cancelled) return;
        url = URL.createObjectURL(blob);
        setState({ url, error: null });
      },
      (error: Error) => !cancelled && setState({ url: null, error: error.message }),
    );
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [id, enabled, dispatch]);
  return state;
}

/** Every file I uploaded, as one zip (Download my data). */
export async function downloadMyFiles(dispatch: AppDispatch): Promise<void> {
  saveFile(await dispatch(fetchBlob('/me/files.zip')), 'classwave-my-files.zip');
}
