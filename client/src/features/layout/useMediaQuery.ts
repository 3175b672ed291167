import { useCallback, useSyncExternalStore } from 'react';

/** Whether a CSS media query matches now; false where matchMedia is missing (e.g. tests). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  const getSnapshot = () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
  return useSyncExternalStore(subscribe, getSnapshot, () => false);
}

/** Phone width: single-column layouts, desktop-only actions hidden. Keep in step with the CSS. */
export const PHONE_MEDIA_QUERY = '(max-width: 767.98px)';

/**
 * Below this width the sidebar is an off-canvas drawer behind a menu button. Tablets in portrait
 * (768–1023 px) get it too: a 280 px sidebar there left the page about 480 px, too little for the
 * cards beside it. Keep in step with Sidebar.css and AppLayout.css.
 */
export const DRAWER_MEDIA_QUERY = '(max-width: 1023.98px)';
