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
  { pattern: /^\/forgot-password$/, title: 'Forgot password' },
  { pattern: /^\/reset-password$/, title: 'Choose a new password' },
  { pattern: /^\/join\/[^/]+$/, title: 'Join a class' },
];

/**
 * The document title for a path: the section's name (as the navigation calls it) and the
 * product's, e.g. `Assignments · Classwave`, so tabs, history and screen readers tell pages apart.
 */
export function documentTitleFor(pathname: string): string {
  const claimed = claimedTitles.get(pathname);
  if (claimed) return `${claimed} · ${APP_NAME}`;
  const path = pathname.replace(/\/+$/, '') || '/';
  const entry = [...mainNavEntries, settingsNavEntry].find((item) => item.to === path);
  const title = entry?.label ?? otherRouteTitles.find(({ pattern }) => pattern.test(path))?.title;
  return title ? `${title} · ${APP_NAME}` : APP_NAME;
}

/**
 * Titles that a page has claimed for its path once it knows a better one than its section's
 * (a course's page is named after the course). A page's effects run before its layout's, so the
 * claim is there when the layout names the document.
 */
const claimedTitles = new Map<string, string>();

export function claimTitle(pathname: string, title: string): () => void {
  claimedTitles.set(pathname, title);
  return () => {
    if (claimedTitles.get(pathname) === title) claimedTitles.delete(pathname);
  };
}
