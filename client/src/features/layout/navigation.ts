import {
  BookOpen,
  Bot,
  CalendarDays,
  ClipboardList,
  GraduationCap,
  LayoutDashboard,
  MessageSquare,
  Settings,
  Users,
  Video,
  type LucideIcon,
} from 'lucide-react';
import { mainNavEntries, settingsNavEntry, type NavEntry } from './pageTitles';

export { APP_NAME, documentTitleFor } from './pageTitles';

export interface NavItem extends NavEntry {
  icon: LucideIcon;
}

/** Each section's icon, by path (a section without one fails to compile). */
const icons: Record<(typeof mainNavEntries)[number]['to'], LucideIcon> = {
  '/dashboard': LayoutDashboard,
  '/courses': BookOpen,
  '/calendar': CalendarDays,
  '/assignments': ClipboardList,
  '/grades': GraduationCap,
  '/live-classes': Video,
  '/teams': Users,
  '/messages': MessageSquare,
  '/chatbot': Bot,
};

/** The side navigation's entries, in the order of spec §2. */
export const mainNavItems: readonly NavItem[] = mainNavEntries.map((entry) => ({
  ...entry,
  icon: icons[entry.to],
}));

/** Pinned to the bottom of the navigation. */
export const settingsNavItem: NavItem = { ...settingsNavEntry, icon: Settings };
