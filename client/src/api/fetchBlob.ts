import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { baseQueryWithReauth } from './baseQuery';

/** Why bytes could not be read: the answer's status (0 for none). */
export class BlobRequestFailed extends Error {
  constructor(readonly status: number | string) {
    super(`The request failed (${status}).`);
  }
}

/**
 * Bytes from the API (a file, a zip) through the same path as every other call: the session's
 * token, and a 401 for an expired one refreshed once and tried again, so a download started after a
 * long quiet spell works like any other request. An error answer is read as JSON, so its code is
 * what decides a refresh. Dispatched as a thunk; the bytes never go into the store.
 */
export const fetchBlob =
  (url: string): ThunkAction<Promise<Blob>, unknown, unknown, UnknownAction> =>
  async (dispatch, getState) => {
    const controller = new AbortController();
    const result = await baseQueryWithReauth(
      {
        url,
        responseHandler: (response) => (response.ok ? response.blob() : response.json().catch(() => null)),
      },
      {
        signal: controller.signal,
        abort: (reason) => controller.abort(reason),
        dispatch,
        getState,
        extra: undefined,
        endpoint: 'fetchBlob',
        type: 'query',
      },
      {},
    );
    if (result.error) throw new BlobRequestFailed((result.error as FetchBaseQueryError).status);
    return result.data as Blob;
  };
