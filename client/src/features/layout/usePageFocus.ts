import { useEffect, useRef, type RefObject } from 'react';
import { useLocation } from 'react-router-dom';
import { claimTitle, documentTitleFor } from './pageTitles';

/** How long to wait for a page that is still loading to render its heading. */
const HEADING_WAIT_MS = 3000;

/** Names the document after the current route (`Assignments · Classwave`). */
export function useDocumentTitle(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = documentTitleFor(pathname);
  }, [pathname]);
}

/**
 * Names the document after what the page shows (`Biology 101 · Classwave`) once it is known,
 * instead of its section's name; the section's comes back when the page goes.
 */
export function usePageTitle(title: string | undefined): void {
  const { pathname } = useLocation();
  useEffect(() => {
    if (!title) return;
    const release = claimTitle(pathname, title);
    document.title = documentTitleFor(pathname);
    return () => {
      release();
      document.title = documentTitleFor(window.location.pathname);
    };
  }, [pathname, title]);
}

/** Focuses a heading without scrolling: the page has just been rendered from its top. */
function focusHeading(heading: HTMLElement) {
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus({ preventScroll: true });
}

/**
 * After a navigation inside the app, moves focus to the new page's h1 (as React Router's and
 * Reach Router's accessible examples do): otherwise focus stays on the menu link that was
 * followed and a screen reader announces nothing of the new page. The first render leaves focus
 * alone (a fresh load starts at the top of the document anyway). A page still loading has its
 * heading focused when it appears; if none appears in time, `container` takes focus instead.
 * A dialog the new page opens on arrival still wins: its own effect runs after this one.
 */
export function useFocusHeadingOnNavigate(container: RefObject<HTMLElement | null>): void {
  const { pathname } = useLocation();
  // The path focus was last placed for; compared rather than a "first render" flag, so that
  // StrictMode's second run of the effect on mount does not count as a navigation.
  const settledPath = useRef(pathname);

  useEffect(() => {
    if (settledPath.current === pathname) return;
    settledPath.current = pathname;
    // A new page starts at its top, as a page load would: the window keeps the last page's
    // scroll otherwise (a phone opened the Assistant 8 px down after the dashboard).
    window.scrollTo(0, 0);
    const root = container.current;
    if (!root) return;
    const heading = root.querySelector<HTMLElement>('h1');
    if (heading) {
      focusHeading(heading);
      return;
    }
    const observer = new MutationObserver(() => {
      const appeared = root.querySelector<HTMLElement>('h1');
      if (!appeared) return;
      observer.disconnect();
      window.clearTimeout(timer);
      focusHeading(appeared);
    });
    observer.observe(root, { childList: true, subtree: true });
    const timer = window.setTimeout(() => {
      observer.disconnect();
      root.focus({ preventScroll: true });
    }, HEADING_WAIT_MS);
    return () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
  }, [pathname, container]);
}
