import { AssignmentPanel, IdParams, type LiveEventType } from '@classwave/shared';
import { callerOf } from '../auth/authenticate.js';
import type { Core } from '../core.js';
import type { AudiencedEvent } from '../events.js';
import { bearerSecurity, signedInErrors } from '../http/responses.js';
import { perApp, type AppModule, type ModuleRoutes } from '../module.js';
import { installPresence, presenceOn } from './presence.js';
import { createPanelService, teachesAssignment } from './service.js';
import { installPanelWatch } from './watch.js';

/** Changes the panel counts (each one's data names its assignment). */
const CHANGES_PANEL: ReadonlySet<LiveEventType> = new Set<LiveEventType>([
  'submission:created',
  'submission:withdrawn',
  // A saved draft is the panel's "started", even with no tab open.
  'draft:saved',
]);

/**
 * The live assignment panel (DESIGN §13): the service that computes it, which teacher tabs watch
 * it (`panel:watch`), and where each student's tab is (`presence:set`), made together.
 */
const panelOf = perApp((core: Core) => {
  const { realtime, db } = core;
  const watch = installPanelWatch(realtime, { owns: (caller, id) => teachesAssignment(db, caller, id) });
  const panels = createPanelService({
    ...core,
    presenceOn: (courseId, assignmentId) => presenceOn(realtime.io, courseId, assignmentId),
    isWatched: watch.isWatched,
  });
  installPresence(realtime, { courseOf: panels.courseFor, changed: panels.changed });
  return { panels, watch };
});

function setup(core: Core) {
  const { panels, watch } = panelOf(core);
  // Each process follows its own commits; the panel it then computes reads the shared database
  // and every process's sockets.
  const onLive = ({ type, data }: AudiencedEvent) => {
    if (CHANGES_PANEL.has(type)) panels.changed((data as { assignmentId: string }).assignmentId);
  };
  core.bus.on('live', onLive);
  return () => {
    core.bus.off('live', onLive);
    watch.close();
    panels.close();
  };
}

const routes: ModuleRoutes = async (app, { core }) => {
  const { panels } = panelOf(core);
  app.get(
    '/assignments/:id/panel',
    {
      schema: {
        tags: ['panel'],
        security: bearerSecurity,
        summary: "Who is viewing, writing, has submitted or is missing, now (the course's teacher)",
        params: IdParams,
        response: { 200: AssignmentPanel, ...signedInErrors },
      },
    },
    async (request) => panels.panel(callerOf(request), request.params.id),
  );
};

export const panel: AppModule = { name: 'panel', setup, routes };
