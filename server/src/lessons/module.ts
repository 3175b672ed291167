import type { AppModule } from '../module.js';
import { lessonRoutes } from './routes.js';
import { createLessonService } from './service.js';

/**
 * Live lessons (DESIGN §21): teacher-paced questions to the whole class, answers streaming into the
 * teachers' results, a reveal per question, and the lesson into the gradebook at its end.
 */
export const lessons: AppModule = {
  name: 'lessons',
  routes: (app, { core }) => lessonRoutes(app, { lessons: createLessonService(core) }),
};
