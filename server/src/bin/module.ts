import type { AppModule } from '../module.js';
import { binRoutes } from './routes.js';
import { createBinService } from './service.js';
import { binJobs } from './store.js';

/** The bin (DESIGN §17): deleted courses and assignments, restorable for 30 days, then purged by a job. */
export const bin: AppModule = {
  name: 'bin',
  setup: (core) => core.jobs.handle(binJobs),
  routes: (app, { core }) => binRoutes(app, { bin: createBinService(core) }),
};
