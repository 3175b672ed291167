import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * How this tab's live connection stands (DESIGN §12): connecting (the first connection of this
 * sign-in, not yet made: nothing is wrong, so nothing is said), live (the socket is connected),
 * reconnecting (online but the socket lost and not back yet), or offline (the browser says there
 * is no network).
 */
export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'offline';

interface State {
  state: ConnectionState;
  /**
   * Where this sign-in's first connection asks from (the session answer's `liveFrom`), when every
   * query in the cache was fetched after it; null otherwise (the first connection refetches).
   */
  liveFrom: number | null;
}

const initialState: State = { state: 'connecting', liveFrom: null };

export const connectionSlice = createSlice({
  name: 'connection',
  initialState,
  reducers: {
    connectionChanged(state, action: PayloadAction<ConnectionState>) {
      state.state = action.payload;
    },
    liveFromSet(state, action: PayloadAction<number | null>) {
      state.liveFrom = action.payload;
    },
  },
  selectors: {
    selectConnection: (state) => state.state,
    selectLiveFrom: (state) => state.liveFrom,
  },
});

export const { connectionChanged, liveFromSet } = connectionSlice.actions;
export const { selectConnection, selectLiveFrom } = connectionSlice.selectors;

/**
 * The state to show given the browser's online flag, whether the socket is connected, and whether
 * it has been connected before (until then a missing connection is still being made).
 */
export const connectionFrom = (
  online: boolean,
  socketConnected: boolean,
  connectedBefore = true,
): ConnectionState =>
  !online ? 'offline' : socketConnected ? 'live' : connectedBefore ? 'reconnecting' : 'connecting';
