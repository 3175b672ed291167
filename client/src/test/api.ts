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

const DEFAULT_SETTINGS = {
  quietHours: { enabled: false, start: '21:00', end: '07:00', timeZone: 'UTC' },
  email: false,
};

/**
 * What the signed-in frame and the dashboard fetch on every page (the bell's inbox, the to-do
 * list): answered empty when a test does not route them, and then left out of its calls.
 */
const CHROME_ROUTES: Record<string, Reply> = {
  'GET /api/notifications': { body: { items: [], unreadCount: 0, nextBefore: null } },
  'GET /api/todo': { body: { work: [], toGrade: [], toReturn: [] } },
  // A session start reports the browser's zone; the bell's frame reads quiet hours (settings).
  'PUT /api/me/time-zone': { body: DEFAULT_SETTINGS },
  'GET /api/me/notification-settings': { body: DEFAULT_SETTINGS },
  // A teacher's Courses page shows their bin under the list (DESIGN §17).
  'GET /api/bin': { body: { items: [] } },
  // A student's frame waits for live lessons' questions (DESIGN §21): none running.
  'GET /api/lessons/live': { body: [] },
  // The sign-in page asks whether the school's sign-in is there (DESIGN §20): password sign-in only.
  'GET /api/auth/settings': { body: { teacherSignup: 'open', passwordSignin: true } },
};

/** A course's stream with no posts, as a course page reads it first. */
export const emptyStream = (courseId: string) => ({
  items: [],
  pinned: [],
  scheduled: [],
  nextBefore: null,
  stream: { courseId, commentsOff: false, muted: false, mutedStudentIds: [] },
});

/**
 * An assignment's rubric (DESIGN §17), read by every submit, grade and submission dialog: none,
 * unless a test routes `GET /api/assignments/<id>/rubric` itself.
 */
function noRubric(key: string): Reply | undefined {
  const match = /^GET \/api\/assignments\/([^/]+)\/rubric$/.exec(key);
  if (match) return { body: { assignmentId: match[1], maxPoints: 0, rubric: null } };
  // An assignment's materials and feedback files (DESIGN §18), read by the same dialogs: none.
  if (/^GET \/api\/assignments\/[^/]+\/files$/.test(key)) return { body: { materials: [], feedback: [] } };
  // A course page opens on its stream (DESIGN §19), and the grading view reads its private threads: empty.
  const stream = /^GET \/api\/courses\/([^/]+)\/posts$/.exec(key);
  if (stream) return { body: emptyStream(stream[1]!) };
  if (/^GET \/api\/assignments\/[^/]+\/threads$/.test(key)) return { body: [] };
  // Opening a stream reads its news; the to-do shows what is new (nothing, unless routed).
  if (/^POST \/api\/courses\/[^/]+\/stream\/read$/.test(key)) return { status: 204 };
  if (key === 'GET /api/stream/news') return { body: [] };
  // A teacher's course page lists the course's teachers (DESIGN §20): nobody yet, unless routed.
  const teachers = /^GET \/api\/courses\/([^/]+)\/teachers$/.exec(key);
  if (teachers) return { body: { courseId: teachers[1], teachers: [], invites: [], maxCoTeachers: 20 } };
  // A course page shows its live lesson (DESIGN §21): none running.
  if (/^GET \/api\/courses\/[^/]+\/lessons\/current$/.test(key)) return { body: { lesson: null } };
  return undefined;
}

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
      const chrome = routes[key] === undefined ? (CHROME_ROUTES[key] ?? noRubric(key)) : undefined;
      if (!chrome) calls.push({ method: request.method, path: url.pathname, body });
      const route = routes[key] ?? chrome;
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
