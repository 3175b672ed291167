import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** The app's policy: its own scripts only, its socket's origin, no framing; HSTS and upgrades behind https. */
export function securityHeaderOptions(appOrigin: string): HelmetOptions {
  const secure = appOrigin.startsWith('https:');
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
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

/** Sends the headers on every response; a route may still replace one (the API docs set their own CSP). */
export function installSecurityHeaders(app: FastifyInstance, headers: Record<string, string>): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
