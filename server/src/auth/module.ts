import cookie from '@fastify/cookie';
import type { AppModule } from '../module.js';
import type { Core } from '../core.js';
import { defaultRateLimits, scalePerIp, type RateLimits } from './limits.js';
import { createRecoveryService } from './recovery.js';
import { authRoutes } from './routes.js';

/** The limits in force: the defaults scaled for PER_IP_LIMIT_SCALE, with a test's own on top. */
export const rateLimitsOf = (core: Core): RateLimits => ({
  ...scalePerIp(defaultRateLimits, core.config.perIpLimitScale),
  ...core.options.rateLimits,
});

/**
 * Accounts and sessions (DESIGN §6): sign-up, verification, sign-in, refresh, sign-out and password
 * recovery, under /api/auth. The sessions themselves are the core's (`core.auth`): every module's
 * routes and every socket authenticate through them.
 */
export const auth: AppModule = {
  name: 'auth',
  publicRoutes: async (api, { core }) => {
    // Cookies are read and written only here (the refresh token's cookie is scoped to /api/auth),
    // so only these routes pay for parsing the Cookie header.
    await api.register(
      async (scope) => {
        await scope.register(cookie);
        await authRoutes(scope, {
          auth: core.auth,
          recovery: createRecoveryService({ ...core, appOrigin: core.config.appOrigin }),
          teacherSignup: core.config.teacherSignup,
          secureCookies: core.config.appOrigin.startsWith('https:'),
          rateLimits: rateLimitsOf(core),
          liveHead: core.replay.head,
        });
      },
      { prefix: '/auth' },
    );
  },
};
