import cluster from 'node:cluster';
import type { Core } from '../core.js';
import { perApp, type AppModule } from '../module.js';
import { prepareAssignmentLists } from './queries.js';
import { createAssignmentReadModel } from './read-model.js';
import { assignmentRoutes } from './routes.js';
import { createAssignmentService } from './service.js';
import { assignmentJobs } from './jobs.js';
import { createExtensionService } from './extensions.js';

/**
 * The assignment lists every page shows, over the read model that keeps their shared part in
 * memory (read-model.ts). The courses module reads them too, for a course's page.
 */
export const assignmentLists = perApp((core: Core) =>
  prepareAssignmentLists(
    core.database,
    core.clock,
    createAssignmentReadModel({
      ...core,
      // Own parts only where this process commits every write (no workers, no Redis-linked peers).
      cacheOwn: !core.config.redisUrl && !cluster.isWorker,
    }),
  ),
);

/** The module's service, once per app (its routes and its publish job share it). */
const serviceOf = perApp((core: Core) => createAssignmentService({ ...core, lists: assignmentLists(core) }));

/**
 * A change on another process leaves this one's cached rows stale: the read model raises
 * `readModel:stale` for its own commits, which go to the other processes, and theirs come back here.
 */
function setup(core: Core) {
  assignmentLists(core);
  core.jobs.handle(assignmentJobs(serviceOf(core)));
  const { bus, realtime } = core;
  const { io, otherProcesses } = realtime;
  if (!otherProcesses) return;
  const tellOthers = ({ courseIds, remote }: { courseIds: string[]; remote: boolean }) => {
    if (!remote) io.serverSideEmit('readModel:stale', courseIds);
  };
  io.on('readModel:stale', (courseIds) => {
    if (Array.isArray(courseIds)) bus.emit('readModel:stale', { courseIds, remote: true });
  });
  bus.on('readModel:stale', tellOthers);
  return () => void bus.off('readModel:stale', tellOthers);
}

/** Assignments (spec §5, DESIGN §13): create, list, edit, delete, with each viewer's status. */
export const assignments: AppModule = {
  name: 'assignments',
  setup,
  routes: (app, { core }) =>
    assignmentRoutes(app, {
      assignments: serviceOf(core),
      extensions: createExtensionService(core),
    }),
};
