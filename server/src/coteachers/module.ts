import type { AppModule } from '../module.js';
import { coTeacherRoutes } from './routes.js';
import { createCoTeacherService } from './service.js';

/** Co-teachers (DESIGN §20): invitations by e-mail, accepting them, removing a co-teacher. */
export const coTeachers: AppModule = {
  name: 'co-teachers',
  routes: (app, { core }) =>
    coTeacherRoutes(app, {
      coTeachers: createCoTeacherService({ ...core, appOrigin: core.config.appOrigin }),
    }),
};
