import {
  combineSlices,
  configureStore,
  createListenerMiddleware,
  type Action,
  type ThunkAction,
} from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { api } from '../api/api';
import { accountSwitched, authSlice, signedOut } from '../features/auth/authSlice';
import { forgetKeptConversations } from '../features/chat/chatStorage';
import { isAnyOf } from '@reduxjs/toolkit';
import { chatSlice } from '../features/chat/chatSlice';
import { layoutSlice, sidebarToggled, writeSidebarCollapsed } from '../features/layout/layoutSlice';
import { connectionSlice } from '../realtime/connectionSlice';
import { uploadsSlice } from '../features/files/uploadsSlice';
import { typingSlice } from '../features/conversations/typingSlice';

const rootReducer = combineSlices(
  api,
  authSlice,
  layoutSlice,
  chatSlice,
  connectionSlice,
  uploadsSlice,
  typingSlice,
);

export type RootState = ReturnType<typeof rootReducer>;

/** Builds a store; tests pass `preloadedState` to start from a given auth or layout state. */
export function makeStore(preloadedState?: Partial<RootState>) {
  const listeners = createListenerMiddleware();
  // Nothing fetched for one user may be shown to the next: a sign-out (or another account signing
  // in over an expired session) drops the whole cache.
  listeners.startListening({
    matcher: isAnyOf(signedOut, accountSwitched),
    effect: (action, listenerApi) => {
      listenerApi.dispatch(api.util.resetApiState());
      if (signedOut.match(action)) forgetKeptConversations();
    },
  });
  listeners.startListening({
    actionCreator: sidebarToggled,
    effect: (_action, listenerApi) => {
      writeSidebarCollapsed((listenerApi.getState() as RootState).layout.sidebarCollapsed);
    },
  });

  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware().prepend(listeners.middleware).concat(api.middleware),
  });
  // Refetch on focus and reconnect for queries that ask for it.
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
export type AppThunk<ReturnType = void> = ThunkAction<ReturnType, RootState, unknown, Action>;
