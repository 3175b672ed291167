import type { LiveFeature } from '../../realtime/liveFeature';
import { isTeacher } from '../../realtime/liveFeature';
import { binApi } from './binApi';

/**
 * The bin's live handlers: a teacher's delete or restore, in this tab or another, changes what the
 * bin holds. The bin is small and read rarely: it loads again rather than being patched.
 */
const reloadBin: () => ReturnType<NonNullable<LiveFeature['refetch']>> = () => (dispatch, getState) => {
  if (isTeacher(getState())) dispatch(binApi.util.invalidateTags(['Bin']));
};

export const binLive: LiveFeature = {
  on: {
    'assignment:deleted': reloadBin,
    'assignment:created': reloadBin,
    'course:deleted': reloadBin,
    'course:created': reloadBin,
  },
  refetch: reloadBin,
};
