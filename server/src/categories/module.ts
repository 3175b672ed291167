import type { AppModule } from '../module.js';
import { categoryRoutes } from './routes.js';
import { createCategoryService } from './service.js';

/** Grade categories with weights (DESIGN §17): the course's totals, the gradebook's and the student's, follow them. */
export const categories: AppModule = {
  name: 'categories',
  routes: (app, { core }) => categoryRoutes(app, { categories: createCategoryService(core) }),
};
