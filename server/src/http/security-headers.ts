import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The app's policy: its own scripts only (files, and the page's inline `scripts` by their hash), its
 * socket's origin, no framing; HSTS and upgrades behind https.
 */
export function securityHeaderOptions(appOrigin: string, scripts: readonly string[] = []): HelmetOptions {
  const secure = appOrigin.startsWith('https:');
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...scripts.map(scriptHash)],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // blob: the app's own copies of a handed-in photo or PDF, fetched with the session's token
        // and shown in its file preview (DESIGN §18); nothing of another origin.
        imgSrc: ["'self'", 'data:', 'blob:'],
        frameSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", appOrigin.replace(/^http/, 'ws')],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: secure ? [] : null,
      },
    },
    strictTransportSecurity: secure,
  };
}

/**
 * Helmet's headers, computed once: the policy never changes while the server runs, and helmet
 * rebuilds its CSP string on every request (about a third of a bare request's cost, measured in
 * bench S1). Helmet stays the source of the headers; this only asks it once and replays the answer.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  let done = false;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    done = true;
  });
  // Helmet's middleware is synchronous; if that ever changed, fail at start-up rather than send none.
  if (!done) throw new Error('helmet did not finish synchronously');
  return headers;
}

/**
 * What an API answer carries instead of the page policy (OWASP's REST security headers): JSON, CSV
 * and calendar files are never rendered as pages, so a policy that forbids everything (stricter
 * than the pages') and no-sniff say all that matters, in about a fifth of the bytes. Sending the
 * page's dozen headers on every API answer cost a quarter of a bare request (bench S1).
 */
export function apiSecurityHeaders(pageHeaders: Record<string, string>): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    ...hstsOf(pageHeaders),
  };
}

/** The pages' HSTS header, when they have one (behind https): every answer carries it. */
const hstsOf = (pageHeaders: Record<string, string>): Record<string, string> => {
  const hsts = pageHeaders['strict-transport-security'];
  return hsts ? { 'strict-transport-security': hsts } : {};
};

/** Whether a URL is the API's, not a page's (the API's docs are pages). */
export const isApiUrl = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/docs');

/**
 * What a built script, stylesheet or icon carries: no-sniff (a script is run only as a script) and
 * resource policy. A page's policy means nothing on them, and repeated on each of a first visit's
 * twenty-odd assets it was about a seventh of the JavaScript bytes Lighthouse counts.
 */
export function assetSecurityHeaders(pageHeaders: Record<string, string>): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
    ...hstsOf(pageHeaders),
  };
}

/** The headers for a response to this URL: the API's, a built asset's or a page's. */
export function securityHeadersFor(pageHeaders: Record<string, string>) {
  const api = apiSecurityHeaders(pageHeaders);
  const asset = assetSecurityHeaders(pageHeaders);
  return (url: string) => (isApiUrl(url) ? api : url.startsWith('/assets/') ? asset : pageHeaders);
}

/**
 * Sends the headers on every response, the API's set on API answers; a route may still replace
 * one (the API docs set their own CSP).
 */
export function installSecurityHeaders(app: FastifyInstance, pageHeaders: Record<string, string>): void {
  const headersFor = securityHeadersFor(pageHeaders);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headersFor(request.url));
    done();
  });
}

/** A CSP source that allows exactly this inline script. */
const scriptHash = (script: string) =>
  `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;

/** The inline scripts of a page (the `<script>` elements without a `src`), as the browser hashes them. */
export function inlineScriptsOf(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attributes]) => !/\bsrc\s*=/i.test(attributes ?? ''))
    .map(([, , body]) => body ?? '');
}
