import type { AppModule } from '../module.js';
import { dashboardRoutes } from './routes.js';
import { createDashboardService } from './service.js';

/** The dashboard's figures and lists for a teacher or a student (spec §7). */
export const dashboard: AppModule = {
  name: 'dashboard',
  routes: (app, { core }) => dashboardRoutes(app, { dashboard: createDashboardService(core) }),
};
