import { TOAST_DURATION_MS } from '@classwave/shared';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { Toaster } from 'sonner';
import type { AppStore } from './store';

/** Redux and the toaster (top-right, 4 s, spec §2). Shared by the app and the tests. */
export function AppProviders({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      {children}
      <Toaster position="top-right" duration={TOAST_DURATION_MS} richColors closeButton />
    </Provider>
  );
}
