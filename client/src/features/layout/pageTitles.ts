// The names of the app's sections and the document title per path. Kept apart from the navigation's
// icons (navigation.ts) so the sign-in page, which sets its title, does not load the icon set.

/** A section of the side navigation, by path. */
export interface NavEntry {
  to: string;
  label: string;
  /** Shown to this role only (absent: to everyone). */
  role?: 'student' | 'teacher';
}

/** The side navigation's sections, in the order of spec §2 (navigation.ts gives each its icon). */
export const mainNavEntries = [
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/courses', label: 'Courses' },
  { to: '/calendar', label: 'Calendar' },
  { to: '/assignments', label: 'Assignments' },
  { to: '/grades', label: 'Grades', role: 'student' },
  { to: '/live-classes', label: 'Live Classes' },
  { to: '/teams', label: 'Teams' },
  { to: '/messages', label: 'Messages' },
  { to: '/chatbot', label: 'AI Assistant' },
] as const satisfies readonly NavEntry[];

/** Pinned to the bottom of the navigation. */
export const settingsNavEntry = { to: '/settings', label: 'Settings' } as const satisfies NavEntry;

/** The product's name, last in every document title. */
export const APP_NAME = 'Classwave';

/** Routes outside the side navigation, by the title a reader should hear first. */
const otherRouteTitles: readonly { pattern: RegExp; title: string }[] = [
  { pattern: /^\/courses\/[^/]+$/, title: 'Course' },
  { pattern: /^\/courses\/[^/]+\/gradebook$/, title: 'Gradebook' },
  { pattern: /^\/login$/, title: 'Sign in' },
  { pattern: /^\/signup$/, title: 'Sign up' },
];

/**
 * The document title for a path: the section's name (as the navigation calls it) and the
 * product's, e.g. `Assignments · Classwave`, so tabs, history and screen readers tell pages apart.
 */
export function documentTitleFor(pathname: string): string {
  const path = pathname.replace(/\/+$/, '') || '/';
  const entry = [...mainNavEntries, settingsNavEntry].find((item) => item.to === path);
  const title = entry?.label ?? otherRouteTitles.find(({ pattern }) => pattern.test(path))?.title;
  return title ? `${title} · ${APP_NAME}` : APP_NAME;
}
