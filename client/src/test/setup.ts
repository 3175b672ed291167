import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, vi } from 'vitest';

// findBy… and waitFor wait up to 5 s, not 1: a page reached through the routes loads its chunk
// first, which on a loaded two-core runner took more than a second (the dashboard's stats).
configure({ asyncUtilTimeout: 5000 });

// A browser resolves a relative Request URL ('/api/...') against the page; the Node Request that
// jsdom leaves in place does not, so give it the page's base as a browser would. Wrapped once per
// worker (its files share the globals) and read against the page of the file running now.
const wrapped = Symbol.for('classwave.browserLikeRequest');
const NodeRequest: typeof Request =
  (globalThis as { [wrapped]?: typeof Request })[wrapped] ?? globalThis.Request;
(globalThis as { [wrapped]?: typeof Request })[wrapped] = NodeRequest;
globalThis.Request = class BrowserLikeRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, globalThis.location.href) : input, init);
  }
};

// jsdom lays nothing out and does not implement scrolling: the app's scroll-to-top on navigation
// is a no-op here (the layout e2e pass checks it in Chromium).
window.scrollTo = () => {};

// jsdom has no pointer capture; sonner captures the pointer when a toast's button is pressed
// (the Undo of a Return).
Element.prototype.setPointerCapture ??= () => {};
Element.prototype.releasePointerCapture ??= () => {};
Element.prototype.hasPointerCapture ??= () => false;

// Vitest runs without globals, so Testing Library cannot register its own cleanup. sonner keeps
// its toasts in module state: without the dismiss, one test's toasts show in the next one's toaster.
// Nothing a test fakes outlives it, whatever the test forgot to undo.
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  toast.dismiss();
  cleanup();
  window.localStorage.clear();
});
