import type { AppModule } from '../module.js';
import { replayRoutes } from './routes.js';

/**
 * Live updates over HTTP: `GET /api/events?after=` for a tab that catches up without its socket.
 * The sockets themselves, the outbox and the replay are the core's.
 */
export const realtime: AppModule = {
  name: 'realtime',
  routes: (app, { core }) => replayRoutes(app, { replay: core.replay }),
};
