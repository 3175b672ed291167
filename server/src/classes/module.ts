import type { AppModule } from '../module.js';
import { createWrongCodeLimiter, defaultWrongCodeLimits, scaleWrongCodeLimits } from './limits.js';
import { classRoutes } from './routes.js';
import { createClassService } from './service.js';

/** Classes (DESIGN §11): join codes and links, the roster, leaving, removal and restoring. */
export const classes: AppModule = {
  name: 'classes',
  routes: (app, { core }) => {
    const { config, clock, log } = core;
    const limiter = createWrongCodeLimiter({
      redis: core.redis,
      limits: {
        ...scaleWrongCodeLimits(defaultWrongCodeLimits, config.perIpLimitScale),
        ...core.options.joinLimits,
      },
      now: () => clock.now().getTime(),
      onError: (err) => log.warn({ err }, 'join-code limits: redis error'),
    });
    return classRoutes(app, { classes: createClassService({ ...core, limiter }) });
  },
};
