import { defaultAuthSettings } from '../auth/service.js';
import { rateLimitsOf } from '../auth/module.js';
import type { AppModule } from '../module.js';
import { meRoutes } from './routes.js';
import { createAccountService } from './service.js';
import { createSettingsService } from './settings.js';

/** The signed-in user's own things, under /api/me: profile, password, sessions, data, settings. */
export const me: AppModule = {
  name: 'me',
  routes: (app, { core }) =>
    meRoutes(app, {
      account: createAccountService({
        ...core,
        sessionIdleSeconds: defaultAuthSettings.refreshTokenTtlSeconds,
      }),
      settings: createSettingsService(core),
      passwordLimit: rateLimitsOf(core).password,
    }),
};
