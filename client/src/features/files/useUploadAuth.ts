import { useMemo } from 'react';
import { refreshSession } from '../../api/refreshSession';
import { useAppDispatch, useAppStore } from '../../app/hooks';
import { selectAccessToken, tokenRefreshed } from '../auth/authSlice';
import type { UploadHandlers } from './upload';

/**
 * What an upload needs of the session: the token for each of its requests (read when sent, as a
 * long upload may outlive one) and a refresh on a 401, shared with the tab's other refreshes.
 */
export function useUploadAuth(): Pick<UploadHandlers, 'token' | 'refresh'> {
  const store = useAppStore();
  const dispatch = useAppDispatch();
  return useMemo(
    () => ({
      token: () => selectAccessToken(store.getState()),
      refresh: () =>
        void refreshSession().then((result) => {
          if (result.ok) dispatch(tokenRefreshed(result.session));
        }),
    }),
    [store, dispatch],
  );
}
