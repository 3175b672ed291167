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
