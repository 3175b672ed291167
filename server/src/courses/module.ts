import { assignmentLists } from '../assignments/module.js';
import { createAssignmentService } from '../assignments/service.js';
import type { AppModule } from '../module.js';
import { courseRoutes } from './routes.js';
import { createCourseService } from './service.js';

/** Courses (spec §4): create, list, open, edit and delete; samples for a new teacher. */
export const courses: AppModule = {
  name: 'courses',
  routes: (app, { core }) =>
    courseRoutes(app, {
      courses: createCourseService({ ...core, lists: assignmentLists(core) }),
      sandbox: createAssignmentService({ ...core, lists: assignmentLists(core) }),
    }),
};
