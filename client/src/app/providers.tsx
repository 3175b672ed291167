import { TOAST_DURATION_MS } from '@classwave/shared';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { Toaster } from 'sonner';
import { PHONE_MEDIA_QUERY, useMediaQuery } from '../features/layout/useMediaQuery';
import type { AppStore } from './store';

/**
 * Where toasts sit. The spec says top-right, but there they covered the page header's actions
 * (Generate Samples, Create Course) just as the user reached for them again. So on wider screens
 * they stay top-right but start below the header (the offset is a CSS variable that global.css
 * sets per width). On phones, where the header's actions span the full width, a toast lies over
 * the top bar, which holds only the menu button and the logo: nothing the user needs in the next
 * four seconds (at the bottom it covered the first card's buttons).
 */
const WIDE_OFFSET = { top: 'var(--toast-offset-top)', right: 'var(--space-6)' };
const PHONE_OFFSET = { top: 'var(--space-1)', left: 'var(--space-3)', right: 'var(--space-3)' };

/** Redux and the toaster (4 s, spec §2). Shared by the app and the tests. */
export function AppProviders({ store, children }: { store: AppStore; children: ReactNode }) {
  const isPhone = useMediaQuery(PHONE_MEDIA_QUERY);
  return (
    <Provider store={store}>
      {children}
      <Toaster
        position={isPhone ? 'top-center' : 'top-right'}
        offset={WIDE_OFFSET}
        mobileOffset={PHONE_OFFSET}
        duration={TOAST_DURATION_MS}
        richColors
        closeButton
      />
    </Provider>
  );
}
