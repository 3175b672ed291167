import type { AppModule } from '../module.js';
import { createDraftService } from './drafts.js';
import { createSubmissionViewService } from './history.js';
import { submissionRoutes } from './routes.js';
import { createSubmissionService } from './service.js';

/**
 * A student's work (DESIGN §12): drafts kept on the server, the one submission per assignment
 * (offline-safe by its Idempotency-Key), unsubmit, the student's read-only view of it with its
 * history (DESIGN §17), and the teacher's list and grade of it.
 */
export const submissions: AppModule = {
  name: 'submissions',
  routes: (app, { core }) =>
    submissionRoutes(app, {
      submissions: createSubmissionService(core),
      drafts: createDraftService(core),
      views: createSubmissionViewService(core),
    }),
};
