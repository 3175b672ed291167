import {
  BookOpen,
  Bot,
  CalendarDays,
  ClipboardList,
  LayoutDashboard,
  MessageSquare,
  Settings,
  Users,
  Video,
  type LucideIcon,
} from 'lucide-react';

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
}

/** The side navigation's entries, in the order of spec §2. */
export const mainNavItems: readonly NavItem[] = [
  { to: '/dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { to: '/courses', label: 'Courses', icon: BookOpen },
  { to: '/calendar', label: 'Calendar', icon: CalendarDays },
  { to: '/assignments', label: 'Assignments', icon: ClipboardList },
  { to: '/live-classes', label: 'Live Classes', icon: Video },
  { to: '/teams', label: 'Teams', icon: Users },
  { to: '/messages', label: 'Messages', icon: MessageSquare },
  { to: '/chatbot', label: 'AI Assistant', icon: Bot },
];

/** Pinned to the bottom of the navigation. */
export const settingsNavItem: NavItem = { to: '/settings', label: 'Settings', icon: Settings };

/** The product's name, last in every document title. */
export const APP_NAME = 'Classwave';

/** Routes outside the side navigation, by the title a reader should hear first. */
const otherRouteTitles: readonly { pattern: RegExp; title: string }[] = [
  { pattern: /^\/courses\/[^/]+$/, title: 'Course' },
  { pattern: /^\/login$/, title: 'Sign in' },
  { pattern: /^\/signup$/, title: 'Sign up' },
];

/**
 * The document title for a path: the section's name (as the navigation calls it) and the
 * product's, e.g. `Assignments · Classwave`, so tabs, history and screen readers tell pages apart.
 */
export function documentTitleFor(pathname: string): string {
  const path = pathname.replace(/\/+$/, '') || '/';
  const navItem = [...mainNavItems, settingsNavItem].find((item) => item.to === path);
  const title = navItem?.label ?? otherRouteTitles.find(({ pattern }) => pattern.test(path))?.title;
  return title ? `${title} · ${APP_NAME}` : APP_NAME;
}
