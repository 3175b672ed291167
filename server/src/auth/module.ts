import { createHash } from 'node:crypto';
import cookie from '@fastify/cookie';
import type { AppModule } from '../module.js';
import type { Core } from '../core.js';
import { defaultRateLimits, scalePerIp, type RateLimits } from './limits.js';
import { createOidcAccounts } from './oidc/accounts.js';
import { createOidcClient } from './oidc/client.js';
import { oidcRoutes } from './oidc/routes.js';
import { createRecoveryService } from './recovery.js';
import { authRoutes } from './routes.js';

/** The limits in force: the defaults scaled for PER_IP_LIMIT_SCALE, with a test's own on top. */
export const rateLimitsOf = (core: Core): RateLimits => ({
  ...scalePerIp(defaultRateLimits, core.config.perIpLimitScale),
  ...core.options.rateLimits,
});

/** The school's provider (DESIGN §20), when OIDC_ISSUER is set. */
function schoolSignIn(core: Core) {
  const config = core.config.oidc;
  if (!config) return undefined;
  const client = createOidcClient(config, `${core.config.appOrigin}/api/auth/oidc/callback`);
  const accounts = createOidcAccounts({
    db: core.db,
    clock: core.clock,
    bus: core.bus,
    roleRules: config.roleRules,
  });
  return { client, accountFor: accounts.accountFor };
}

/**
 * Accounts and sessions (DESIGN §6): sign-up, verification, sign-in, refresh, sign-out, password
 * recovery and the school's OpenID sign-in, under /api/auth. The sessions themselves are the core's
 * (`core.auth`): every module's routes and every socket authenticate through them.
 */
export const auth: AppModule = {
  name: 'auth',
  publicRoutes: async (api, { core }) => {
    const { config } = core;
    const secureCookies = config.appOrigin.startsWith('https:');
    const rateLimits = rateLimitsOf(core);
    // Cookies are read and written only here (the refresh token's cookie is scoped to /api/auth),
    // so only these routes pay for parsing the Cookie header.
    await api.register(
      async (scope) => {
        await scope.register(cookie);
        await authRoutes(scope, {
          auth: core.auth,
          recovery: createRecoveryService({ ...core, appOrigin: config.appOrigin }),
          teacherSignup: config.teacherSignup,
          passwordSignin: config.passwordSignin,
          oidcName: config.oidc?.name,
          secureCookies,
          rateLimits,
          liveHead: core.replay.head,
        });
        await scope.register(oidcRoutes, {
          prefix: '/oidc',
          oidc: schoolSignIn(core),
          auth: core.auth,
          appOrigin: config.appOrigin,
          clock: core.clock,
          flowKey: createHash('sha256').update(`oidc-flow:${config.jwtSecret}`).digest('base64url'),
          secureCookies,
          callbackLimit: rateLimits.signInPerIp,
        });
      },
      { prefix: '/auth' },
    );
  },
};
