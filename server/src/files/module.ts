import path from 'node:path';
import type { FilePurpose } from '@classwave/shared';
import type { Core } from '../core.js';
import { perApp, type AppModule } from '../module.js';
import { userRoom } from '../realtime/rooms.js';
import { fileRoutes } from './routes.js';
import { createFileService, releasedFeedback } from './service.js';
import { createStorage } from './storage.js';
import { createUploads, FILES_SWEEP_KIND } from './uploads.js';
import { toSummary } from './views.js';

const DAY_MS = 24 * 3600 * 1000;

/** The module's parts, once per app: the storage, the tus uploads and the file service. */
export const filesOf = perApp((core: Core) => {
  const storage = createStorage(core.config.storage);
  const uploads = createUploads({
    db: core.db,
    outbox: core.outbox,
    clock: core.clock,
    log: core.log,
    storage,
    limits: core.config.uploads,
    stagingDir: path.join(core.config.dataDir, 'uploads'),
    appOrigin: core.config.appOrigin,
  });
  const service = createFileService({ db: core.db, outbox: core.outbox, storage, uploads, log: core.log });
  return { storage, uploads, service };
});

/**
 * Attachments (DESIGN §18): resumable uploads (tus) for assignments, submissions and feedback,
 * downloads under the parent's rules, removal by the uploader, the teacher's zip, and the daily sweep.
 */
export const files: AppModule = {
  name: 'files',
  setup(core) {
    const { service, storage } = filesOf(core);
    core.jobs.handle({
      async [FILES_SWEEP_KIND](_job, { tx, now }) {
        await service.sweep(tx, now);
        return { runAt: new Date(now.getTime() + DAY_MS) };
      },
    });
    core.outbox.rules('files', {
      // A grade reaching its student (its event addressed to them) brings its feedback files along.
      async 'submission:graded'(submission, { tx, record, now, audience }) {
        const student = userRoom(submission.studentId);
        if (!audience.includes(student)) return;
        for (const file of await releasedFeedback(tx, submission.assignmentId, submission.studentId, now))
          record(
            'file:ready',
            {
              file: toSummary(file),
              purpose: file.purpose as FilePurpose,
              assignmentId: submission.assignmentId,
              courseId: file.courseId!,
              studentId: submission.studentId,
            },
            [student],
          );
      },
    });
    return () => storage.close();
  },
  routes: (app, { core }) =>
    fileRoutes(app, { files: filesOf(core).service, uploads: filesOf(core).uploads }),
};
