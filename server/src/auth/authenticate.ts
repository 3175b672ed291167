import type { FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../http/errors.js';
import type { Caller } from './caller.js';
import type { AuthService } from './service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authenticate hook on every protected route. */
    caller: Caller | null;
  }
}

/** Reads `Authorization: Bearer <token>`; undefined when there is no such header. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The one hook every protected route runs: no valid, live session, no entry. */
export function createAuthenticateHook(auth: AuthService) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const token = bearerToken(request);
    if (!token)
      throw unauthorized('Sign in to continue: send the access token as "Authorization: Bearer <token>".');
    request.caller = await auth.authenticate(token);
  };
}

/** The signed-in caller of a protected route (the authenticate hook guarantees one). */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthorized();
  return request.caller;
}
