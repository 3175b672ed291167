import type { Core } from '../core.js';
import { perApp, type AppModule } from '../module.js';
import { createBankService } from './bank.js';
import { bankRoutes } from './bank-routes.js';
import { lessonRoutes } from './routes.js';
import { createLessonService } from './service.js';
import { createTallyRefresh } from './tally-refresh.js';

const lessonsOf = perApp((core: Core) => {
  const tallies = createTallyRefresh(core);
  return { tallies, service: createLessonService({ ...core, tallies }), bank: createBankService(core) };
});

/**
 * Live lessons (DESIGN §21): teacher-paced questions to the whole class, answers streaming into the
 * teachers' results, a reveal per question, and the lesson into the gradebook at its end.
 */
export const lessons: AppModule = {
  name: 'lessons',
  setup: (core) => {
    const { tallies } = lessonsOf(core);
    return () => tallies.close();
  },
  routes: async (app, { core }) => {
    const { service, bank } = lessonsOf(core);
    await lessonRoutes(app, { lessons: service });
    await bankRoutes(app, { bank });
  },
};
