import type { FileSummary } from '@classwave/shared';
import { useEffect, useState } from 'react';
import { useAppStore } from '../../app/hooks';
import { selectAccessToken } from '../auth/authSlice';

/** Images and PDFs are shown in the app (DESIGN §18); every other type, HTML and SVG included, is only downloaded. */
export const previewable = (type: string) =>
  ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'application/pdf'].includes(type);

/**
 * A file's bytes through GET /api/files/:id with the session's token: the server decides who may
 * read it (the parent's rules). The blob takes the type the server sniffed, never the name's.
 */
export async function fetchFile(id: string, token: string | null, inline: boolean): Promise<Blob> {
  const response = await fetch(`/api/files/${encodeURIComponent(id)}${inline ? '?inline=1' : ''}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok)
    throw new Error(
      response.status === 404 ? 'This file is no longer there.' : 'The file could not be loaded.',
    );
  return response.blob();
}

/** Saves a file under its own name (an object URL clicked as a download link). */
export async function downloadFile(file: FileSummary, token: string | null): Promise<void> {
  const url = URL.createObjectURL(await fetchFile(file.id, token, false));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** An object URL of a previewable file's bytes while `enabled`; released when no longer shown. */
export function useFileUrl(file: FileSummary | null, enabled = true) {
  const store = useAppStore();
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
    fetchFile(id, selectAccessToken(store.getState()), true).then(
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
  }, [id, enabled, store]);
  return state;
}
