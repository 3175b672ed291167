import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { createAuthenticateHook } from './auth/authenticate.js';
import type { Core } from './core.js';
import type { AppModule } from './module.js';

/**
 * Wires the modules into the app: each one's setup (bus, sockets, jobs, the outbox's rules), its
 * teardown for when the app closes, then its routes under `/api`: public ones as they are, the
 * rest behind the authenticate hook.
 */
export async function installModules(app: FastifyInstance, core: Core, modules: AppModule[]): Promise<void> {
  for (const module of modules) {
    const teardown = module.setup?.(core);
    if (teardown) app.addHook('onClose', async () => teardown());
  }
  await app.register(
    async (api) => {
      // CORS only where a page of APP_ORIGIN calls with credentials: the API. The client's files and
      // the docs are same-origin loads that need no CORS hook on every request.
      // A list, not a string: a foreign origin then gets no Access-Control-Allow-Origin at all.
      await api.register(cors, { origin: [core.config.appOrigin], credentials: true });
      for (const module of modules)
        if (module.publicRoutes) await api.register(module.publicRoutes, { core });
      await api.register(async (signedIn) => {
        signedIn.addHook('onRequest', createAuthenticateHook(core.auth));
        for (const module of modules) {
          const guard = module.guard?.(core);
          if (guard) signedIn.addHook('preHandler', guard);
        }
        for (const module of modules) if (module.routes) await signedIn.register(module.routes, { core });
      });
    },
    { prefix: '/api' },
  );
}
