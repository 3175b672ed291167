import type { LiveFeature } from '../../realtime/liveFeature';
import { profileLoaded, selectProfile } from './authSlice';

/** The account's live handler (DESIGN §15). */
export const authLive: LiveFeature = {
  on: {
    // Only the user's own tabs hear it: the name in the header and on Settings follows.
    'profile:updated':
      ({ data: profile }) =>
      (dispatch, getState) => {
        if (selectProfile(getState())?.id === profile.id) dispatch(profileLoaded(profile));
      },
  },
};
