import type { Core } from '../core.js';
import type { AppModule } from '../module.js';
import { gradingRoutes } from './routes.js';
import { returnJobs } from './scheduled-returns.js';
import { createGradingService } from './service.js';

/**
 * Grading a teacher can trust (DESIGN §13): the gradebook and its CSV, held grades returned now or
 * after an undo window (a job of its own), excusals, and a student's grades.
 */
export const grading: AppModule = {
  name: 'grading',
  setup: (core: Core) => core.jobs.handle(returnJobs),
  routes: (app, { core }) =>
    gradingRoutes(app, {
      grading: createGradingService({
        ...core,
        undoWindowMs: core.options.returnUndoMs ?? core.config.returnUndoSeconds * 1000,
      }),
    }),
};
