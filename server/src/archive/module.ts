import { filesOf } from '../files/module.js';
import type { AppModule } from '../module.js';
import { createCopyService } from './copy.js';
import { createArchiveGuard } from './guard.js';
import { archiveRoutes } from './routes.js';
import { createArchiveService } from './service.js';

/**
 * Archive and copy (DESIGN §20): archiving and unarchiving a course, the read-only rule of an
 * archived one (a guard on every signed-in write), copying a course and reusing an assignment.
 */
export const archive: AppModule = {
  name: 'archive',
  guard: (core) => createArchiveGuard(core.db),
  routes: (app, { core }) =>
    archiveRoutes(app, {
      archive: createArchiveService({ clock: core.clock, outbox: core.outbox }),
      copies: createCopyService({
        db: core.db,
        clock: core.clock,
        outbox: core.outbox,
        storage: filesOf(core).storage,
        quotaBytes: core.config.uploads.quotaBytes,
        log: core.log,
      }),
    }),
};
