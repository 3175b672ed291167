/**
 * Real HTTP for the reliability pass: every call reports what the caller could observe (a status
 * and a body, or no answer at all), and simulated people sign up through the real verification mail.
 */
import type { Session } from '@classwave/shared';

/** What a client saw: an answer, or nothing (refused, cut off, or timed out). */
export type Outcome =
  | { answered: true; status: number; body: unknown; headers: Headers; ms: number }
  | { answered: false; error: string; timedOut: boolean; ms: number };

/** Longer than any answer should take; a request still open after this counts as a hang. */
export const REQUEST_TIMEOUT_MS = 15_000;

let inFlight = 0;
/** Requests sent and not yet answered or failed, across every simulated person. */
export const requestsInFlight = () => inFlight;

export async function call(
  base: string,
  method: string,
  url: string,
  options: { token?: string | undefined; body?: unknown; ip?: string | undefined } = {},
): Promise<Outcome> {
  const began = Date.now();
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.ip) headers['x-forwarded-for'] = options.ip;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  inFlight++;
  try {
    const res = await fetch(base + url, {
      method,
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { answered: true, status: res.status, body, headers: res.headers, ms: Date.now() - began };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } };
    return {
      answered: false,
      error: e.cause?.code ?? e.cause?.message ?? e.message,
      timedOut: e.name === 'TimeoutError',
      ms: Date.now() - began,
    };
  } finally {
    inFlight--;
  }
}

/** The call's 2xx body, or an error naming what came back instead. */
export async function ok<T>(...args: Parameters<typeof call>): Promise<T> {
  const outcome = await call(...args);
  if (!outcome.answered || outcome.status < 200 || outcome.status > 299) {
    throw new Error(`${args[1]} ${args[2]}: ${describeOutcome(outcome)}`);
  }
  return outcome.body as T;
}

export function describeOutcome(outcome: Outcome): string {
  return outcome.answered
    ? `${outcome.status} ${JSON.stringify(outcome.body).slice(0, 300)}`
    : `no answer (${outcome.error})`;
}

export interface Person {
  id: string;
  email: string;
  fullName: string;
  role: 'student' | 'teacher';
  token: string;
  /** The address this person's requests come from (X-Forwarded-For; the server trusts one hop). */
  ip: string;
}

let people = 0;

/**
 * Signs up through the API, opens the link the real mail carried, and signs in.
 * `mailTo` waits for the newest mail to an address (the test's SMTP catcher).
 */
export async function signUp(
  base: string,
  mailTo: (email: string) => Promise<{ text: string }>,
  role: 'student' | 'teacher',
  fullName: string,
): Promise<Person> {
  const n = ++people;
  const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  const email = `${role}.${n}.${Date.now().toString(36)}@school.test`;
  const password = 'correct horse battery';
  await ok(base, 'POST', '/api/auth/signup', { ip, body: { email, password, fullName, role } });
  const link = /https?:\/\/\S+\/api\/auth\/verify\?token=[\w-]+/.exec((await mailTo(email)).text)?.[0];
  if (!link) throw new Error(`no verification link in the mail to ${email}`);
  const verified = await call(base, 'GET', new URL(link).pathname + new URL(link).search, { ip });
  if (!verified.answered || verified.status !== 302) throw new Error(`verify: ${describeOutcome(verified)}`);
  const { session } = await ok<{ session: Session }>(base, 'POST', '/api/auth/signin', {
    ip,
    body: { email, password },
  });
  return { id: session.user.id, email, fullName, role, token: session.accessToken, ip };
}
