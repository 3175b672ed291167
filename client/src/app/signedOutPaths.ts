/**
 * Paths open to a signed-out visitor: there, nothing of the signed-in app is loaded ahead (by the
 * router at start-up, and by the page's shell preload, which the build writes into index.html).
 */
export const SIGNED_OUT_PATHS = ['/login', '/signup', '/forgot-password', '/reset-password'] as const;

/** Whether a path is one of the signed-out pages (or below one). */
export const isSignedOutPath = (pathname: string) =>
  SIGNED_OUT_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
