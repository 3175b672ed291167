import type { AppModule } from '../module.js';
import { rubricRoutes } from './routes.js';
import { createRubricService } from './service.js';

/**
 * Rubrics (DESIGN §17): an assignment's criteria × levels, kept as its own snapshot. Grading by it
 * goes through the grade writes (submissions/grades.ts, with scores.ts from here).
 */
export const rubrics: AppModule = {
  name: 'rubrics',
  routes: (app, { core }) => rubricRoutes(app, { rubrics: createRubricService(core) }),
};
