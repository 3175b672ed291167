import { Upload, type DetailedError } from 'tus-js-client';
import { apiErrorMessageOfBody } from './uploadErrors';

/** Where tus uploads go (DESIGN §18). */
export const UPLOADS_ENDPOINT = '/api/uploads';

/** The server's file id: the last part of the upload's URL. */
export const fileIdOf = (uploadUrl: string) => uploadUrl.split('/').pop() ?? '';

/** Why an upload stopped: the server refused it for good, or the connection (or server) failed. */
export type UploadFailure = { kind: 'refused'; status: number; message: string } | { kind: 'connection' };

export interface UploadHandlers {
  /** The access token for each request (it may be refreshed while a large file uploads). */
  token: () => string | null;
  /** Called on a 401: refresh the session, so the retry that follows carries a new token. */
  refresh: () => void;
  onUrl: (url: string) => void;
  onProgress: (sent: number, total: number) => void;
  onStored: () => void;
  onFailed: (failure: UploadFailure) => void;
}

/**
 * Uploads one file with tus 1.0, resuming `uploadUrl` when there is one (the bytes already there are
 * not sent again). Retries a few times by itself; after that, or offline, it reports a connection
 * failure and the caller starts it again when the browser is back online.
 */
export function startUpload(
  file: Blob,
  { uploadUrl, metadata }: { uploadUrl: string | null; metadata: Record<string, string> },
  handlers: UploadHandlers,
): Upload {
  const upload = new Upload(file, {
    endpoint: UPLOADS_ENDPOINT,
    uploadUrl,
    metadata,
    // The device keeps the URL itself (IndexedDB, with the file): no localStorage fingerprints.
    storeFingerprintForResuming: false,
    retryDelays: [0, 1000, 3000, 6000],
    onBeforeRequest: (request) => {
      const token = handlers.token();
      if (token) request.setHeader('Authorization', `Bearer ${token}`);
    },
    onShouldRetry: (error, attempt, options) => {
      const status = error.originalResponse?.getStatus() ?? 0;
      if (status === 401) {
        handlers.refresh();
        return attempt < (options.retryDelays?.length ?? 0);
      }
      // A refusal (too large, not allowed, closed) is not tried again; no answer, a 5xx or 423 is.
      return (status === 0 || status >= 500 || status === 423 || status === 409) && navigator.onLine;
    },
    onUploadUrlAvailable: () => {
      if (upload.url) handlers.onUrl(upload.url);
    },
    onProgress: (sent, total) => handlers.onProgress(sent, total),
    onSuccess: () => handlers.onStored(),
    onError: (error) => handlers.onFailed(failureOf(error as DetailedError)),
  });
  upload.start();
  return upload;
}

function failureOf(error: DetailedError): UploadFailure {
  const status = error.originalResponse?.getStatus() ?? 0;
  if (status === 0 || status >= 500 || status === 401 || status === 423 || status === 409)
    return { kind: 'connection' };
  return {
    kind: 'refused',
    status,
    message: apiErrorMessageOfBody(
      error.originalResponse?.getBody() ?? '',
      'The file could not be uploaded.',
    ),
  };
}
