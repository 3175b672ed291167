import { beforeAll } from 'vitest';
import { preloadAllPages } from '../app/router';

// The app loads each page's chunk on first visit; a test that renders the routes queries them at
// once, as a browser that has already fetched the chunks would show them. Registered by importing
// this module (not in setup.ts), so the test files that render no route do not load every page.
beforeAll(preloadAllPages);

export { AppRoutes } from '../app/router';
