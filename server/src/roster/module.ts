import type { AppModule } from '../module.js';
import { claimJobs, enrolOnVerification } from './claim.js';
import { rosterJobs } from './jobs.js';
import { rosterRoutes } from './routes.js';
import { createRosterService } from './service.js';

/** Roster import (DESIGN §20): a class list from a CSV or a OneRoster export, invited by e-mail. */
export const roster: AppModule = {
  name: 'roster',
  setup: (core) => {
    core.jobs.handle({ ...rosterJobs, ...claimJobs });
    return enrolOnVerification(core);
  },
  routes: (app, { core }) => rosterRoutes(app, { roster: createRosterService(core) }),
};
