import clsx from 'clsx';
import { LogOut, PanelLeftClose, PanelLeftOpen, X } from 'lucide-react';
import { useState } from 'react';
import { Link, NavLink, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Logo } from '../../components/Logo';
import { selectProfile } from '../auth/authSlice';
import { signOut } from '../auth/session';
import { selectMobileNavOpen, selectSidebarCollapsed, sidebarToggled } from './layoutSlice';
import { mainNavItems, settingsNavItem, type NavItem } from './navigation';
import './Sidebar.css';

export const SIDEBAR_ID = 'app-sidebar';

export interface SidebarProps {
  /** Closes the phone drawer; `restoreFocus` returns focus to the menu button. */
  onCloseDrawer: (restoreFocus: boolean) => void;
}

/**
 * The side navigation of spec §2: who is signed in, the sections, Settings at the bottom and
 * Sign Out. Collapsible to icons on wide screens; a drawer on phones.
 */
export function Sidebar({ onCloseDrawer }: SidebarProps) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const profile = useAppSelector(selectProfile);
  const collapsed = useAppSelector(selectSidebarCollapsed);
  const drawerOpen = useAppSelector(selectMobileNavOpen);
  const [signingOut, setSigningOut] = useState(false);

  const fullName = profile?.fullName.trim() || 'Classwave user';
  const role = profile?.role ?? 'student';
  const initial = fullName.charAt(0).toUpperCase();

  async function handleSignOut() {
    setSigningOut(true);
    const confirmed = await dispatch(signOut());
    if (confirmed) toast.success('Signed out successfully');
    else toast.error('Error signing out');
    await navigate('/');
  }

  const renderItem = ({ to, label, icon: Icon }: NavItem) => (
    <li key={to}>
      <NavLink
        to={to}
        title={collapsed ? label : undefined}
        className={({ isActive }) => clsx('nav-link', isActive && 'nav-link--active')}
        onClick={() => onCloseDrawer(false)}
      >
        <Icon className="nav-link__icon" aria-hidden="true" size={20} />
        <span className="nav-link__label">{label}</span>
      </NavLink>
    </li>
  );

  return (
    <aside
      id={SIDEBAR_ID}
      aria-label="Sidebar"
      className={clsx('sidebar', collapsed && 'sidebar--collapsed', drawerOpen && 'sidebar--open')}
    >
      {/* The aside stretches to the page's full height (its background and border with it, also in
          a full-page screenshot); this inner column stays in view as the page scrolls. */}
      <div className="sidebar__inner">
        <div className="sidebar__top">
          <Link to="/dashboard" className="sidebar__brand" onClick={() => onCloseDrawer(false)}>
            <Logo />
          </Link>
          <button
            type="button"
            className="sidebar__icon-button sidebar__collapse"
            aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
            aria-expanded={!collapsed}
            aria-controls={SIDEBAR_ID}
            title={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
            onClick={() => dispatch(sidebarToggled())}
          >
            {collapsed ? (
              <PanelLeftOpen aria-hidden="true" size={20} />
            ) : (
              <PanelLeftClose aria-hidden="true" size={20} />
            )}
          </button>
          <button
            type="button"
            className="sidebar__icon-button sidebar__close"
            aria-label="Close menu"
            data-drawer-close
            onClick={() => onCloseDrawer(true)}
          >
            <X aria-hidden="true" size={20} />
          </button>
        </div>

        <div className="sidebar__user" title={collapsed ? `${fullName} (${role})` : undefined}>
          <span className="sidebar__avatar" aria-hidden="true">
            {initial}
          </span>
          <div className="sidebar__user-text">
            <p className="sidebar__user-name">{fullName}</p>
            <p className="sidebar__user-role">{role}</p>
          </div>
        </div>

        <nav className="sidebar__nav" aria-label="Main">
          <ul className="sidebar__list">
            {mainNavItems.filter((item) => !item.role || item.role === role).map(renderItem)}
          </ul>
          <ul className="sidebar__list sidebar__list--bottom">{renderItem(settingsNavItem)}</ul>
        </nav>

        <div className="sidebar__footer">
          <button
            type="button"
            className="nav-link nav-link--button"
            title={collapsed ? 'Sign Out' : undefined}
            disabled={signingOut}
            aria-busy={signingOut || undefined}
            onClick={() => void handleSignOut()}
          >
            <LogOut className="nav-link__icon" aria-hidden="true" size={20} />
            <span className="nav-link__label">Sign Out</span>
          </button>
        </div>
      </div>
    </aside>
  );
}
