import { SIDEBAR_WIDTH_COLLAPSED, SIDEBAR_WIDTH_EXPANDED } from '@classwave/shared';
import { Menu } from 'lucide-react';
import { useCallback, useEffect, useRef, type CSSProperties } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Logo } from '../../components/Logo';
import { ConnectionIndicator } from '../../realtime/ConnectionIndicator';
import { SubmitQueueFlusher } from '../drafts/SubmitQueueFlusher';
import { StudentQuestionDialog } from '../lessons/StudentQuestionDialog';
import { HeldAlerts } from '../notifications/HeldAlerts';
import { NotificationBell } from '../notifications/NotificationBell';
import { mobileNavSet, selectMobileNavOpen } from './layoutSlice';
import { SIDEBAR_ID, Sidebar } from './Sidebar';
import { DRAWER_MEDIA_QUERY, useMediaQuery } from './useMediaQuery';
import { useDocumentTitle, useFocusHeadingOnNavigate } from './usePageFocus';
import './AppLayout.css';

// The spec's sidebar widths, from shared, handed to the stylesheet.
const shellStyle = {
  '--sidebar-width-expanded': `${SIDEBAR_WIDTH_EXPANDED}px`,
  '--sidebar-width-collapsed': `${SIDEBAR_WIDTH_COLLAPSED}px`,
} as CSSProperties;

/**
 * The signed-in frame: side navigation, a top bar with the notification bell (and, below
 * tablet-landscape width, the menu button) and the page.
 */
export function AppLayout() {
  const dispatch = useAppDispatch();
  const drawerOpen = useAppSelector(selectMobileNavOpen);
  const drawerMode = useMediaQuery(DRAWER_MEDIA_QUERY);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const mainRef = useRef<HTMLElement>(null);
  const drawerActive = drawerMode && drawerOpen;
  useDocumentTitle();
  useFocusHeadingOnNavigate(mainRef);

  const closeDrawer = useCallback(
    (restoreFocus: boolean) => {
      dispatch(mobileNavSet(false));
      if (restoreFocus) menuButtonRef.current?.focus();
    },
    [dispatch],
  );

  // While the drawer is open: Escape closes it, and focus starts inside it.
  useEffect(() => {
    if (!drawerActive) return;
    document.getElementById(SIDEBAR_ID)?.querySelector<HTMLElement>('[data-drawer-close]')?.focus();
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape') closeDrawer(true);
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [drawerActive, closeDrawer]);

  return (
    <div className="app-shell" style={shellStyle}>
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <Sidebar onCloseDrawer={closeDrawer} />
      {drawerActive && (
        <div className="app-shell__scrim" aria-hidden="true" onClick={() => closeDrawer(true)} />
      )}
      <div className="app-shell__body" inert={drawerActive}>
        <header className="topbar">
          <button
            ref={menuButtonRef}
            type="button"
            className="topbar__menu"
            aria-label="Open menu"
            aria-expanded={drawerOpen}
            aria-controls={SIDEBAR_ID}
            onClick={() => dispatch(mobileNavSet(true))}
          >
            <Menu aria-hidden="true" size={22} />
          </button>
          <Link to="/dashboard" className="topbar__brand">
            <Logo />
          </Link>
          <NotificationBell />
          <HeldAlerts />
        </header>
        <ConnectionIndicator />
        <SubmitQueueFlusher />
        <StudentQuestionDialog />
        <main ref={mainRef} id="main-content" className="app-main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
