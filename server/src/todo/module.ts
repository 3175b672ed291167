import type { AppModule } from '../module.js';
import { todoRoutes } from './routes.js';
import { createTodoService } from './service.js';

/** The to-do list (DESIGN §14): a student's open work, a teacher's work to grade and to return. */
export const todo: AppModule = {
  name: 'todo',
  routes: (app, { core }) => todoRoutes(app, { todo: createTodoService(core) }),
};
