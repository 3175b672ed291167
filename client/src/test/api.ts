// A stand-in for the API in component tests: `fetch` answered per route. Each test sets its own.
import { vi } from 'vitest';

/** An answer: a status and a JSON body, or `pending` for one that never comes (a load in progress). */
export type Reply = { status?: number; body?: unknown; headers?: Record<string, string> } | 'pending';
/** A fixed reply, or one computed from the request (its JSON body already parsed). */
export type Route = Reply | ((request: { url: URL; body: unknown }) => Reply);

export interface ApiCall {
  method: string;
  path: string;
  body: unknown;
}

/** The API's error body for a status, with `message`. */
export const apiError = (statusCode: number, message: string, code = 'conflict'): Reply => ({
  status: statusCode,
  body: { statusCode, code, error: 'Error', message },
});

/**
 * Stubs `fetch` so that requests to `METHOD /api/path` get the routes' replies; anything else
 * fails the test with a 500 naming it. Returns the calls made, in order.
 */
export function answerApi(routes: Record<string, Route>): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const url = new URL(request.url);
      const text = await request.text();
      const body: unknown = text ? JSON.parse(text) : undefined;
      const key = `${request.method} ${url.pathname}`;
      calls.push({ method: request.method, path: url.pathname, body });
      const route = routes[key];
      const reply: Reply =
        route === undefined
          ? apiError(500, `No test route for ${key}`, 'internal')
          : typeof route === 'function'
            ? route({ url, body })
            : route;
      if (reply === 'pending') return new Promise<Response>(() => {});
      const status = reply.status ?? 200;
      if (status === 204) return new Response(null, { status });
      return new Response(JSON.stringify(reply.body ?? null), {
        status,
        headers: { 'content-type': 'application/json', ...reply.headers },
      });
    }),
  );
  return calls;
}
