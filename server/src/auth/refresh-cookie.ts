import type { FastifyReply } from 'fastify';
import type { IssuedSession } from './service.js';

export const REFRESH_COOKIE = 'classwave_refresh';
const COOKIE_PATH = '/api/auth';

/** The refresh token's cookie, set by every way of signing in (password or the school's provider). */
export function setRefreshCookie(reply: FastifyReply, issued: IssuedSession, secure: boolean): void {
  reply.setCookie(REFRESH_COOKIE, issued.refreshToken, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure,
    expires: issued.refreshExpiresAt,
  });
}

export function clearRefreshCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure });
}
