import type { LiveFeature } from '../../realtime/liveFeature';
import { draftSavedElsewhere } from './draftEvents';

/** Drafts' live handler (DESIGN §12): a draft saved in another tab reaches the open answer dialog. */
export const draftsLive: LiveFeature = {
  on: {
    'draft:saved':
      ({ data }) =>
      () =>
        draftSavedElsewhere(data),
  },
};
