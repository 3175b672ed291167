import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { ErrorBody, OidcSigninError } from '@classwave/shared';
import type { Clock } from '../../clock.js';
import { limitBy, type Limit } from '../limits.js';
import { setRefreshCookie } from '../refresh-cookie.js';
import type { AuthService } from '../service.js';
import type { OidcAccount } from './accounts.js';
import { isAuthorizationRefusal, ProviderUnavailable, type OidcClaims, type OidcClient } from './client.js';
import { safeNext } from './next.js';
import { createFlowSeal, FLOW_COOKIE, FLOW_COOKIE_PATH, FLOW_TTL_SECONDS } from './flow-cookie.js';

export interface OidcRoutesOptions {
  /** Undefined when OIDC_ISSUER is unset: both routes send the browser back to /login saying so. */
  oidc: { client: OidcClient; accountFor(claims: OidcClaims): Promise<OidcAccount> } | undefined;
  auth: AuthService;
  appOrigin: string;
  clock: Clock;
  /** Seals the flow cookie (derived from JWT_SECRET). */
  flowKey: string;
  secureCookies: boolean;
  /** Callbacks per address: each one costs a request to the provider. */
  callbackLimit: Limit;
}

const redirect = Type.Null({ description: 'A redirect; the Location header says where.' });
/** A parameter of the provider's answer; longer than any real one is refused before anything runs. */
const param = (description: string) => Type.Optional(Type.String({ maxLength: 2048, description }));

/**
 * Sign-in with the school's OpenID provider (DESIGN §20): `start` sends the browser to the
 * provider with a fresh state, nonce and PKCE challenge sealed into a cookie; `callback` checks
 * the state, lets openid-client exchange the code and validate the ID token, finds or makes the
 * account, and starts a session exactly as a password sign-in does. Every refusal is a redirect
 * to /login?error=<reason> (OidcSigninError), never an error page.
 */
export const oidcRoutes: FastifyPluginAsyncTypebox<OidcRoutesOptions> = async (
  app,
  { oidc, auth, appOrigin, clock, flowKey, secureCookies, callbackLimit },
) => {
  const seal = createFlowSeal(flowKey);
  const toLogin = (reply: FastifyReply, reason: OidcSigninError) =>
    reply.redirect(`${appOrigin}/login?error=${reason}`, 302);
  const cookieOptions = {
    path: FLOW_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies,
  } as const;

  app.get(
    '/start',
    {
      schema: {
        tags: ['auth'],
        summary: "Begin a sign-in with the school's OpenID provider (authorization code + PKCE)",
        description:
          'Redirects (302) to the provider with a sealed, httpOnly, ten-minute flow cookie; or to ' +
          '/login?error=oidc_not_configured or oidc_unavailable. `next`, a path inside the app, is ' +
          'where the callback lands; anything else (an absolute or protocol-relative URL) is ignored.',
        querystring: Type.Object({
          next: Type.Optional(
            Type.String({
              maxLength: 4096,
              description: 'Where to land once signed in: a same-origin path such as /join/ABCD-EFGH.',
            }),
          ),
        }),
        response: { 302: redirect },
      },
    },
    async (request, reply) => {
      if (!oidc) return toLogin(reply, OidcSigninError.notConfigured);
      try {
        const { url, flow } = await oidc.client.begin();
        // An unsafe `next` is dropped, not refused: the sign-in goes on and lands on the home page.
        const next = safeNext(request.query.next, appOrigin);
        reply.setCookie(FLOW_COOKIE, seal.seal({ ...flow, next }, clock.now()), {
          ...cookieOptions,
          maxAge: FLOW_TTL_SECONDS,
        });
        return reply.redirect(url.href, 302);
      } catch (error) {
        request.log.warn({ err: error }, 'the OpenID provider could not be reached');
        return toLogin(reply, OidcSigninError.unavailable);
      }
    },
  );

  app.get(
    '/callback',
    {
      preHandler: limitBy(app, [{ name: 'oidc-callback-ip', key: (r) => r.ip, ...callbackLimit }]),
      schema: {
        tags: ['auth'],
        summary: "Where the school's OpenID provider sends the browser back; starts a session",
        description:
          'Redirects (302) into the app with the refresh cookie set, or to /login?error=<reason>: ' +
          Object.values(OidcSigninError).join(', ') +
          '. The flow cookie is spent whatever happens.',
        querystring: Type.Object({
          code: param('The authorization code.'),
          state: param('Must equal the state sealed in the flow cookie.'),
          iss: param("The provider's issuer (RFC 9207)."),
          error: param("The provider's refusal, e.g. access_denied."),
          error_description: param("The provider's words about its refusal."),
          session_state: param('Session management state (ignored).'),
        }),
        response: { 302: redirect, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      if (!oidc) return toLogin(reply, OidcSigninError.notConfigured);
      const flow = seal.open(request.cookies[FLOW_COOKIE], clock.now());
      // Single use: a second answer with the same cookie (a replay, a reload) starts over.
      reply.clearCookie(FLOW_COOKIE, cookieOptions);
      if (!flow || request.query.state !== flow.state) return toLogin(reply, OidcSigninError.state);
      let claims: OidcClaims;
      try {
        claims = await oidc.client.finish(new URL(request.url, appOrigin), flow);
      } catch (error) {
        if (error instanceof ProviderUnavailable) return toLogin(reply, OidcSigninError.unavailable);
        if (isAuthorizationRefusal(error)) return toLogin(reply, OidcSigninError.denied);
        request.log.warn({ err: error }, 'a school sign-in did not check out');
        return toLogin(reply, OidcSigninError.failed);
      }
      const account = await oidc.accountFor(claims);
      if ('refused' in account) return toLogin(reply, account.refused);
      const issued = await auth.startSession(account.user, request.headers['user-agent']);
      setRefreshCookie(reply, issued, secureCookies);
      // The app reads the session from the refresh cookie on load, as after any reload. `next` was
      // checked at the start and sealed since; checked again so no older cookie can widen it.
      return reply.redirect(`${appOrigin}${safeNext(flow.next, appOrigin) ?? '/'}`, 302);
    },
  );
};
