import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { TeacherSignupPolicy } from '../config.js';
import {
  AuthSettingsResponse,
  ErrorBody,
  ErrorCode,
  RecoverBody,
  ResetBody,
  ResetCheckBody,
  MessageResponse,
  ResendBody,
  RefreshResponse,
  SessionResponse,
  SignInBody,
  SignUpBody,
} from '@classwave/shared';
import { AppError } from '../http/errors.js';
import { bearerToken } from './authenticate.js';
import {
  clearRefreshCookie as clearCookie,
  REFRESH_COOKIE,
  setRefreshCookie as setCookie,
} from './refresh-cookie.js';
import { emailKey, limitBy, type RateLimits } from './limits.js';
import type { RecoveryService } from './recovery.js';
import type { AuthService, IssuedSession } from './service.js';

export { REFRESH_COOKIE } from './refresh-cookie.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody, 503: ErrorBody };

export interface AuthRoutesOptions {
  auth: AuthService;
  recovery: RecoveryService;
  teacherSignup: TeacherSignupPolicy;
  /** PASSWORD_SIGNIN: false closes sign-up, sign-in, resend and recovery by password (403). */
  passwordSignin: boolean;
  /** The school sign-in button's name, when OIDC is set up. */
  oidcName: string | undefined;
  secureCookies: boolean;
  rateLimits: RateLimits;
  /** The newest live event id, read before a session is issued (its answer's `liveFrom`). */
  liveHead: () => Promise<number>;
}

/** Public auth endpoints: sign-up, verification, sign-in, refresh, sign-out and password recovery. */
export const authRoutes: FastifyPluginAsyncTypebox<AuthRoutesOptions> = async (
  app,
  { auth, recovery, teacherSignup, passwordSignin, oidcName, secureCookies, rateLimits, liveHead },
) => {
  const ip = (r: { ip: string }) => r.ip;
  // Per address first, so one account's budget runs out before the school's shared IP budget does.
  const signUpLimit = limitBy(app, [
    { name: 'signup-email', key: emailKey, ...rateLimits.signUp },
    { name: 'signup-ip', key: ip, ...rateLimits.signUpPerIp },
  ]);
  const signInLimit = limitBy(app, [
    { name: 'signin-email', key: emailKey, ...rateLimits.signIn },
    { name: 'signin-ip', key: ip, ...rateLimits.signInPerIp },
  ]);
  const resendLimit = limitBy(app, [
    { name: 'resend', key: (r) => `${r.ip}|${emailKey(r)}`, ...rateLimits.resend },
  ]);
  const recoverLimit = limitBy(app, [
    { name: 'recover-email', key: emailKey, ...rateLimits.recover },
    { name: 'recover-ip', key: ip, ...rateLimits.recoverPerIp },
  ]);

  const setRefreshCookie = (reply: FastifyReply, issued: IssuedSession) =>
    setCookie(reply, issued, secureCookies);
  const clearRefreshCookie = (reply: FastifyReply) => clearCookie(reply, secureCookies);
  // PASSWORD_SIGNIN=off: every way in or back in by password is closed (DESIGN §20).
  const passwordOnly = async () => {
    if (!passwordSignin)
      throw new AppError(
        403,
        ErrorCode.passwordSigninOff,
        'Password sign-in is turned off on this server: use the school sign-in button.',
      );
  };

  app.post(
    '/signup',
    {
      preHandler: [passwordOnly, signUpLimit],
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
      preHandler: [passwordOnly, resendLimit],
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
      preHandler: [passwordOnly, signInLimit],
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        body: SignInBody,
        response: { 200: SessionResponse, ...errors },
      },
    },
    async (request, reply) => {
      // Read first: whatever the tab fetches with this session comes after it.
      const liveFrom = await liveHead();
      const issued = await auth.signIn({ ...request.body, userAgent: request.headers['user-agent'] });
      setRefreshCookie(reply, issued);
      return { session: issued.session, liveFrom };
    },
  );

  app.get(
    '/settings',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Public sign-in settings: who may create a teacher account (TEACHER_SIGNUP), whether passwords work, the school sign-in',
        response: { 200: AuthSettingsResponse },
      },
    },
    async () => ({
      ...(teacherSignup.mode === 'domains'
        ? { teacherSignup: 'domains' as const, domains: teacherSignup.domains }
        : { teacherSignup: teacherSignup.mode }),
      passwordSignin,
      ...(oidcName ? { oidc: { name: oidcName } } : {}),
    }),
  );

  app.post(
    '/recover',
    {
      preHandler: [passwordOnly, recoverLimit],
      schema: {
        tags: ['auth'],
        summary: 'Mail a single-use password-reset link (valid 1 h); the same answer for unknown addresses',
        body: RecoverBody,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => recovery.recover(request.body),
  );

  app.post(
    '/reset',
    {
      preHandler: [passwordOnly, limitBy(app, [{ name: 'reset-ip', key: ip, ...rateLimits.recoverPerIp }])],
      schema: {
        tags: ['auth'],
        summary: 'Choose a new password with the token from a reset link; ends every session of the user',
        body: ResetBody,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => recovery.reset(request.body),
  );

  app.post(
    '/reset/check',
    {
      preHandler: [passwordOnly, limitBy(app, [{ name: 'reset-ip', key: ip, ...rateLimits.recoverPerIp }])],
      schema: {
        tags: ['auth'],
        summary: 'Whether a reset link still works (400 reset_link_invalid saying why); spends nothing',
        body: ResetCheckBody,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => recovery.checkResetLink(request.body),
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
          200: RefreshResponse,
          204: Type.Null({ description: 'No refresh cookie: signed out. No body, no cookie set.' }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const presented = request.cookies[REFRESH_COOKIE];
      if (!presented) return reply.status(204).send(null);
      try {
        const liveFrom = await liveHead();
        const issued = await auth.refresh(presented);
        setRefreshCookie(reply, issued);
        return { session: issued.session, profile: await auth.profileOf(issued.session.user.id), liveFrom };
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
