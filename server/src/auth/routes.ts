import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import {
  ErrorBody,
  MeResponse,
  MessageResponse,
  ResendBody,
  SessionResponse,
  SignInBody,
  SignUpBody,
} from '@classwave/shared';
import { bearerToken, callerOf } from './authenticate.js';
import type { AuthService, IssuedSession } from './service.js';

export const REFRESH_COOKIE = 'classwave_refresh';
const COOKIE_PATH = '/api/auth';

export interface RateLimits {
  signUp: { max: number; timeWindow: number };
  signIn: { max: number; timeWindow: number };
  resend: { max: number; timeWindow: number };
  refresh: { max: number; timeWindow: number };
}

const MINUTE = 60_000;
/** Generous enough for a class signing in together behind one school address, tight enough to stop guessing. */
export const defaultRateLimits: RateLimits = {
  signUp: { max: 30, timeWindow: 10 * MINUTE },
  signIn: { max: 10, timeWindow: MINUTE },
  resend: { max: 5, timeWindow: 10 * MINUTE },
  refresh: { max: 120, timeWindow: MINUTE },
};

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody, 503: ErrorBody };
const emailKey = (body: unknown) => {
  const email = (body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 254) : '';
};

export interface AuthRoutesOptions {
  auth: AuthService;
  secureCookies: boolean;
  rateLimits: RateLimits;
}

/** Public auth endpoints: sign-up, verification, sign-in, refresh and sign-out. */
export const authRoutes: FastifyPluginAsyncTypebox<AuthRoutesOptions> = async (
  app,
  { auth, secureCookies, rateLimits },
) => {
  function setRefreshCookie(reply: FastifyReply, issued: IssuedSession) {
    reply.setCookie(REFRESH_COOKIE, issued.refreshToken, {
      path: COOKIE_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookies,
      expires: issued.refreshExpiresAt,
    });
  }
  const clearRefreshCookie = (reply: FastifyReply) =>
    reply.clearCookie(REFRESH_COOKIE, {
      path: COOKIE_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookies,
    });

  app.post(
    '/signup',
    {
      config: { rateLimit: rateLimits.signUp },
      schema: {
        tags: ['auth'],
        summary: 'Create an account and send the verification e-mail',
        body: SignUpBody,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => auth.signUp(request.body),
  );

  app.get(
    '/verify',
    {
      schema: {
        tags: ['auth'],
        summary: 'Confirm an e-mail address from the link in the verification e-mail',
        description:
          "Always redirects (302): to the link's redirectTo when it worked, else to /login with the reason.",
        querystring: Type.Object({ token: Type.Optional(Type.String({ maxLength: 512 })) }),
        response: { 302: Type.Null({ description: 'A redirect; the Location header says where.' }) },
      },
    },
    async (request, reply) => reply.redirect(await auth.verifyEmail(request.query.token), 302),
  );

  app.post(
    '/resend',
    {
      config: {
        rateLimit: {
          ...rateLimits.resend,
          hook: 'preHandler',
          keyGenerator: (r) => `${r.ip}|${emailKey(r.body)}`,
        },
      },
      schema: {
        tags: ['auth'],
        summary: 'Send a new verification e-mail',
        body: ResendBody,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => auth.resendVerification(request.body),
  );

  app.post(
    '/signin',
    {
      config: {
        rateLimit: {
          ...rateLimits.signIn,
          hook: 'preHandler',
          keyGenerator: (r) => `${r.ip}|${emailKey(r.body)}`,
        },
      },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        body: SignInBody,
        response: { 200: SessionResponse, ...errors },
      },
    },
    async (request, reply) => {
      const issued = await auth.signIn(request.body);
      setRefreshCookie(reply, issued);
      return { session: issued.session };
    },
  );

  app.post(
    '/refresh',
    {
      config: { rateLimit: rateLimits.refresh },
      schema: {
        tags: ['auth'],
        summary: 'Exchange the refresh cookie for a fresh session (the cookie rotates)',
        description:
          'Without a refresh cookie the answer is 204 with no body: nobody is signed in in this browser. ' +
          'That is the normal answer to a first visit, so it is not an error (a browser would log a 401 ' +
          'as one). A cookie that is expired, revoked or unknown still gets 401.',
        response: {
          200: SessionResponse,
          204: Type.Null({ description: 'No refresh cookie: signed out. No body, no cookie set.' }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const presented = request.cookies[REFRESH_COOKIE];
      if (!presented) return reply.status(204).send(null);
      try {
        const issued = await auth.refresh(presented);
        setRefreshCookie(reply, issued);
        return { session: issued.session };
      } catch (error) {
        clearRefreshCookie(reply);
        throw error;
      }
    },
  );

  app.post(
    '/signout',
    {
      schema: {
        tags: ['auth'],
        summary: 'End this session everywhere it is used',
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      // Sign-out works with an expired access token too: the refresh cookie names the session.
      let sessionId: string | undefined;
      const token = bearerToken(request);
      if (token)
        sessionId = await auth.authenticate(token).then(
          (c) => c.sessionId,
          () => undefined,
        );
      await auth.signOut({ sessionId, refreshToken: request.cookies[REFRESH_COOKIE] });
      clearRefreshCookie(reply);
      return reply.status(204).send(null);
    },
  );
};

/** Routes about the signed-in user; registered behind the authenticate hook. */
export const meRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  app.get(
    '/me',
    {
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user and their profile',
        security: [{ bearerAuth: [] }],
        response: { 200: MeResponse, 401: ErrorBody },
      },
    },
    async (request) => auth.me(callerOf(request)),
  );
};
